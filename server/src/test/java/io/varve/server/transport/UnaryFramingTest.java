package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One unary body, however its bytes are split into pieces: exactly one complete message within the
 * limit, or a refusal naming what is wrong.
 */
class UnaryFramingTest {

  static final int LIMIT = 16;

  /**
   * Feeds {@code body} in two pieces split at {@code split}, then ends it; the refusal's kind and
   * message, or {@code OK}.
   */
  static String outcome(byte[] body, int split) {
    UnaryFraming framing = new UnaryFraming(LIMIT, "the test's limit");
    try {
      framing.read(Arrays.copyOfRange(body, 0, split));
      framing.read(Arrays.copyOfRange(body, split, body.length));
      framing.end();
      return "OK";
    } catch (VarveException e) {
      assertThat(e instanceof InvalidFieldException f ? f.field() : "body").isEqualTo("body");
      return e.kind() + " " + e.getMessage();
    }
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "00 00000003 616263 | OK",
        "00 00000000 | OK",
        "01 00000002 1f8b | OK",
        "00 00000010 00000000000000000000000000000000 | OK",
        "'' | INVALID_ARGUMENT body: no message (expected: exactly one message on a unary call)",
        "00 | INVALID_ARGUMENT body: incomplete message: the request ended 1 bytes into the 5-byte"
            + " prefix (expected: one complete length-prefixed message)",
        "00 000000 | INVALID_ARGUMENT body: incomplete message: the request ended 4 bytes into the"
            + " 5-byte prefix (expected: one complete length-prefixed message)",
        "00 00000003 | INVALID_ARGUMENT body: incomplete message: its length prefix declares 3 bytes,"
            + " the request ended after 0 (expected: one complete length-prefixed message)",
        "00 00000003 6162 | INVALID_ARGUMENT body: incomplete message: its length prefix declares 3"
            + " bytes, the request ended after 2 (expected: one complete length-prefixed message)",
        "00 00000001 61 00 | INVALID_ARGUMENT body: a second message at byte 6 (expected: exactly one"
            + " message on a unary call)",
        "00 00000000 00 00000000 | INVALID_ARGUMENT body: a second message at byte 5 (expected:"
            + " exactly one message on a unary call)",
        "02 00000000 | INVALID_ARGUMENT body: message flags 0x02 (expected: 0x00, or 0x01 for a"
            + " compressed message)",
        "80 00000000 | INVALID_ARGUMENT body: message flags 0x80 (expected: 0x00, or 0x01 for a"
            + " compressed message)",
        "00 00000011 | RESOURCE_EXHAUSTED body: a message of 17 bytes (expected: at most 16 bytes,"
            + " the test's limit)",
        "00 ffffffff 00 | RESOURCE_EXHAUSTED body: a message of 4294967295 bytes (expected: at most"
            + " 16 bytes, the test's limit)",
        "00 80000000 | RESOURCE_EXHAUSTED body: a message of 2147483648 bytes (expected: at most 16"
            + " bytes, the test's limit)"
      })
  void a_body_is_taken_or_refused_wherever_its_pieces_are_split(String hex, String expected) {
    byte[] body = HexFormat.of().parseHex(hex.replace(" ", ""));

    for (int split = 0; split <= body.length; split++) {
      assertThat(outcome(body, split)).as("split at " + split).isEqualTo(expected);
    }
  }

  @ParameterizedTest(name = "[{index}] {0} bytes")
  @CsvSource({"1", "4096", "65536"})
  void a_large_message_in_many_pieces_is_taken(int size) {
    UnaryFraming framing = new UnaryFraming(size, "the test's limit");
    byte[] body = ByteBuffer.allocate(5 + size).put((byte) 0).putInt(size).array();

    assertThatCode(
            () -> {
              for (int i = 0; i < body.length; i += 7) {
                framing.read(Arrays.copyOfRange(body, i, Math.min(i + 7, body.length)));
              }
              framing.end();
            })
        .doesNotThrowAnyException();
  }

  /**
   * What the decorator hands the gRPC service: a body admission gathered and found well framed is
   * passed as it is, the attribute cleared; a malformed one is wrapped, so its refusal ends the
   * request stream as before.
   */
  @Test
  void a_gathered_body_is_checked_in_one_pass_and_a_malformed_one_as_it_streams() throws Exception {
    for (String hex : new String[] {"0000000003616263", "0200000003616263"}) {
      byte[] body = HexFormat.of().parseHex(hex);
      HttpRequest req =
          HttpRequest.of(
              RequestHeaders.of(
                  HttpMethod.POST,
                  "/varve.api.kv.v1.KeyValue/PutItems",
                  HttpHeaderNames.CONTENT_TYPE,
                  "application/grpc+proto"),
              HttpData.wrap(body));
      ServiceRequestContext ctx = ServiceRequestContext.of(req);
      ctx.setAttr(Admission.GATHERED_BODY, HttpData.wrap(body));
      HttpRequest[] seen = new HttpRequest[1];
      HttpService service =
          UnaryFraming.decorator(LIMIT, "the test's limit")
              .apply(
                  (HttpService)
                      (c, r) -> {
                        seen[0] = r;
                        return HttpResponse.of(200);
                      });
      service.serve(ctx, req);
      assertThat(ctx.ownAttr(Admission.GATHERED_BODY)).isNull();
      if (hex.startsWith("00")) {
        assertThat(seen[0]).isSameAs(req);
      } else {
        assertThat(seen[0]).isNotSameAs(req);
        assertThatCode(() -> seen[0].aggregate().join())
            .hasRootCauseInstanceOf(InvalidFieldException.class)
            .rootCause()
            .hasMessageContaining("message flags 0x02");
      }
    }
  }
}
