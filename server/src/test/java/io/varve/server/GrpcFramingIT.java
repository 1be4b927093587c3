package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.linecorp.armeria.client.WebClient;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
import io.grpc.Status;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.core.event.Limits;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * gRPC bodies framed as no gRPC client frames them, sent byte for byte: a unary call with two
 * messages, a message cut short, a length prefix past the limit. Each gets the status grpc-java
 * would give, with a message naming the problem and no class name of the server's libraries.
 */
class GrpcFramingIT {

  static final String LIST = "/" + ControlPlaneGrpc.SERVICE_NAME + "/ListNamespaces";
  static final String GET = "/" + ControlPlaneGrpc.SERVICE_NAME + "/GetNamespace";
  static final String GET_ITEMS = "/" + KeyValueGrpc.SERVICE_NAME + "/GetItems";
  static final byte[] GET_MESSAGE =
      GetNamespaceRequest.newBuilder().setNamespace("framing_it").build().toByteArray();

  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_grpc_framing_it");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A gRPC frame: the flags byte, the 4-byte big-endian length prefix, then {@code message}. */
  static byte[] frame(int flags, int declaredLength, byte[] message) {
    return ByteBuffer.allocate(5 + message.length)
        .put((byte) flags)
        .putInt(declaredLength)
        .put(message)
        .array();
  }

  static byte[] frame(byte[] message) {
    return frame(0, message.length, message);
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** The gRPC status code and message (decoded) of a call of {@code path} with {@code body}. */
  static String grpcAnswer(String path, byte[] body) {
    AggregatedHttpResponse answer =
        WebClient.of("h2c://127.0.0.1:" + server.server.port())
            .execute(
                RequestHeaders.builder(HttpMethod.POST, path)
                    .contentType(MediaType.parse("application/grpc+proto"))
                    .add("te", "trailers")
                    .build(),
                HttpData.wrap(body))
            .aggregate()
            .join();
    // a refusal before any message is trailers-only: its status is in the headers
    boolean trailersOnly = answer.trailers().isEmpty();
    var trailers = trailersOnly ? answer.headers() : answer.trailers();
    return trailers.get("grpc-status") + " " + percentDecoded(trailers.get("grpc-message", ""));
  }

  /** The grpc-message header's text: percent-encoded UTF-8. */
  static String percentDecoded(String message) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      if (c == '%' && i + 2 < message.length()) {
        bytes.write(Integer.parseInt(message.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  static String code(Status.Code code) {
    return code.value() + " ";
  }

  @Test
  void two_messages_on_a_unary_call_are_invalid_argument_naming_the_second() {
    byte[] one = frame(new byte[0]);
    assertThat(grpcAnswer(LIST, one)).as("one message").startsWith(code(Status.Code.OK));

    String answer = grpcAnswer(LIST, concat(one, one));

    assertThat(answer)
        .isEqualTo(
            code(Status.Code.INVALID_ARGUMENT)
                + "body: a second message at byte 5"
                + " (expected: exactly one message on a unary call)");
    assertThat(grpcAnswer(GET, concat(frame(GET_MESSAGE), new byte[] {0})))
        .startsWith(code(Status.Code.INVALID_ARGUMENT) + "body: a second message at byte ");
  }

  @ParameterizedTest(name = "[{index}] cut after {0} bytes")
  @ValueSource(ints = {1, 4, 5, 6})
  void a_message_cut_short_is_invalid_argument_saying_it_is_incomplete(int kept) {
    byte[] whole = frame(GET_MESSAGE);
    assertThat(grpcAnswer(GET, whole))
        .as("the whole message")
        .startsWith(code(Status.Code.NOT_FOUND));

    String answer = grpcAnswer(GET, Arrays.copyOf(whole, kept));

    assertThat(answer)
        .startsWith(code(Status.Code.INVALID_ARGUMENT) + "body: incomplete message: ")
        .contains("(expected: one complete length-prefixed message)");
    if (kept >= 5) {
      assertThat(answer)
          .contains(
              "its length prefix declares "
                  + GET_MESSAGE.length
                  + " bytes, the request ended after "
                  + (kept - 5));
    } else {
      assertThat(answer).contains("the request ended " + kept + " bytes into the 5-byte prefix");
    }
  }

  @Test
  void an_empty_body_is_invalid_argument_saying_no_message_came() {
    assertThat(grpcAnswer(GET, new byte[0]))
        .isEqualTo(
            code(Status.Code.INVALID_ARGUMENT)
                + "body: no message (expected: exactly one message on a unary call)");
  }

  @Test
  void a_length_prefix_past_the_limit_is_resource_exhausted_naming_the_limit_and_the_length() {
    int limit = Limits.DEFAULT.maxRequestBytes();

    for (int declared : new int[] {0xFFFFFFFF, Integer.MAX_VALUE, limit + 1}) {
      String answer = grpcAnswer(GET, frame(0, declared, GET_MESSAGE));

      assertThat(answer)
          .isEqualTo(
              code(Status.Code.RESOURCE_EXHAUSTED)
                  + "body: a message of "
                  + Integer.toUnsignedString(declared)
                  + " bytes (expected: at most "
                  + limit
                  + " bytes, timeseries.limits.maxRequestBytes)");
    }
    String kv =
        grpcAnswer(
            GET_ITEMS,
            frame(
                0,
                0xFFFFFFFF,
                GetItemsRequest.newBuilder().setNamespace("x").build().toByteArray()));
    assertThat(kv)
        .startsWith(code(Status.Code.RESOURCE_EXHAUSTED) + "body: a message of 4294967295 bytes")
        .contains("kv.chunks.maxValueBytes");
  }

  @Test
  void reserved_flag_bits_are_invalid_argument_naming_the_flags() {
    assertThat(grpcAnswer(GET, frame(0x02, GET_MESSAGE.length, GET_MESSAGE)))
        .isEqualTo(
            code(Status.Code.INVALID_ARGUMENT)
                + "body: message flags 0x02"
                + " (expected: 0x00, or 0x01 for a compressed message)");
  }

  @Test
  void no_answer_names_a_class_of_the_servers_libraries() {
    for (byte[] body :
        new byte[][] {
          frame(0x01, GET_MESSAGE.length, GET_MESSAGE),
          frame(0, 0xFFFFFFFF, new byte[0]),
          new byte[] {0, 0}
        }) {
      assertThat(grpcAnswer(GET, body)).doesNotContainPattern("[a-z]+\\.[a-z]+\\.[A-Za-z.]+:");
    }
  }
}
