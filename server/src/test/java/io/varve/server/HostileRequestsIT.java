package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Timestamp;
import com.google.protobuf.WireFormat;
import com.linecorp.armeria.client.WebClient;
import com.linecorp.armeria.client.grpc.GrpcClients;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.BooleanQuery;
import io.varve.api.timeseries.v1.CountAggregation;
import io.varve.api.timeseries.v1.EqualsQuery;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchQuery;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests a hostile or careless client sends outside the JSON body's fields: paths that HTTP
 * clients would normalise, protobuf messages nested past any sane depth, timestamps out of range.
 * Each gets a refusal naming what is wrong, never a dropped connection or an internal error.
 */
class HostileRequestsIT {

  static final String NS = "hostile_it";
  static final Instant T = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
  static TestServer server;
  static TimeSeriesGrpc.TimeSeriesBlockingStub grpc;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_hostile_it", NS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + NS
                + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\"}]}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    grpc = GrpcClients.builder(server.base()).build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /**
   * The status line, headers and body of a request written byte for byte, as no HTTP client would.
   */
  static String raw(String requestTarget) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST "
                  + requestTarget
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  + "Content-Length: 2\r\nConnection: close\r\n\r\n{}")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      // up to the end of the body its Content-Length gives, or of the connection without one: the
      // server may hold a connection open a few seconds after its answer, as HTTP/1.1 lets it
      int headEnd = -1;
      long length = -1;
      int b;
      while ((b = in.read()) >= 0) {
        answer.write(b);
        if (headEnd < 0 && b == '\n') {
          String head = answer.toString(StandardCharsets.ISO_8859_1);
          if (head.endsWith("\r\n\r\n")) {
            headEnd = answer.size();
            length = contentLength(head);
          }
        }
        if (headEnd >= 0 && length >= 0 && answer.size() >= headEnd + length) {
          break;
        }
      }
      return answer.toString(StandardCharsets.UTF_8);
    }
  }

  private static long contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        return Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    return -1;
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @CsvSource({
    "/v1/../health,           400, INVALID_ARGUMENT",
    "/v1/%2e%2e/health,       400, INVALID_ARGUMENT",
    "/v1/%2E%2E/health,       400, INVALID_ARGUMENT",
    "/v1/a/../b,              400, INVALID_ARGUMENT",
    "/v1/..,                  400, INVALID_ARGUMENT",
    "/v1/%2e%2e,              400, INVALID_ARGUMENT",
    "/v1/../../../etc/passwd, 400, INVALID_ARGUMENT",
    "/v1/..%2fhealth,         400, INVALID_ARGUMENT",
    "/v1/%5c..%5chealth,      400, INVALID_ARGUMENT",
    "/v1/%00,                 400, INVALID_ARGUMENT",
    "/v1/a%00b,               400, INVALID_ARGUMENT",
    "/v1/./Write,             404, NOT_FOUND",
    "/v1/a%2fb,               404, NOT_FOUND",
    "/v1/a%2Fb,               404, NOT_FOUND"
  })
  void a_path_that_escapes_or_hides_in_v1_gets_an_answer_not_a_closed_connection(
      String path, int status, String code) throws Exception {
    String answer = raw(path);

    assertThat(answer).as("answer to POST " + path).startsWith("HTTP/1.1 " + status + " ");
    String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
    JsonNode error = TestServer.JSON.readTree(body).path("error");
    assertThat(error.path("code").asText()).as(answer).isEqualTo(code);
    assertThat(error.path("message").asText()).as(answer).isNotEmpty();
  }

  @Test
  void a_path_with_a_raw_nul_or_space_gets_an_answer() throws Exception {
    assertThat(raw("/v1/a\u0000b")).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
    assertThat(raw("/v1/../health HTTP/1.1")).matches("(?s)HTTP/1\\.1 4\\d\\d .*");
  }

  @Test
  void the_rpc_route_still_answers_after_hostile_paths() throws Exception {
    raw("/v1/../health");
    assertThat(raw("/v1/ListNamespaces")).startsWith("HTTP/1.1 200 ");
  }

  static SearchQuery nested(int depth) {
    SearchQuery q =
        SearchQuery.newBuilder()
            .setEquals(
                EqualsQuery.newBuilder()
                    .setEventItemKey(ByteString.copyFromUtf8("k"))
                    .setEventItemValue(ByteString.copyFromUtf8("v")))
            .build();
    for (int i = 0; i < depth; i++) {
      q =
          SearchQuery.newBuilder()
              .setBooleanQuery(BooleanQuery.newBuilder().addSearchQuery(q))
              .build();
    }
    return q;
  }

  static TimeInterval interval() {
    return TimeInterval.newBuilder()
        .setStart(ts(T.getEpochSecond(), 0))
        .setEnd(ts(T.getEpochSecond() + 60, 0))
        .build();
  }

  static Timestamp ts(long seconds, int nanos) {
    return Timestamp.newBuilder().setSeconds(seconds).setNanos(nanos).build();
  }

  static void refusedOverGrpc(ThrowingCallable call, String descriptionStart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode())
                  .as(e.getStatus().toString())
                  .isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).startsWith(descriptionStart);
            });
  }

  @ParameterizedTest(name = "[{index}] depth {0}")
  @ValueSource(ints = {9, 40})
  void a_search_query_nested_past_the_limit_is_invalid_argument_over_grpc(int depth) {
    refusedOverGrpc(
        () ->
            grpc.searchEventRecords(
                SearchEventRecordsRequest.newBuilder()
                    .setNamespace(NS)
                    .setTimeInterval(interval())
                    .setSearchQuery(nested(depth))
                    .build()),
        "searchQuery" + ".booleanQuery.searchQuery[0]".repeat(8) + ".booleanQuery: nested 9 deep");
    refusedOverGrpc(
        () ->
            grpc.aggregateEventRecords(
                AggregateEventRecordsRequest.newBuilder()
                    .setNamespace(NS)
                    .setTimeInterval(interval())
                    .setSearchQuery(nested(depth))
                    .setAggregationQuery(
                        AggregationQuery.newBuilder()
                            .setCount(CountAggregation.getDefaultInstance()))
                    .build()),
        "searchQuery" + ".booleanQuery.searchQuery[0]".repeat(8) + ".booleanQuery: nested 9 deep");
  }

  /**
   * The protobuf bytes of a search query of {@code depth} boolean queries around one equals,
   * written outer to inner in one pass (a client's builder would overflow its own stack serialising
   * it).
   */
  static byte[] nestedBytes(int depth) throws Exception {
    byte[] leaf = nested(0).toByteArray();
    int boolQuery = SearchQuery.getDescriptor().findFieldByName("boolean_query").getNumber();
    int clause = BooleanQuery.getDescriptor().findFieldByName("search_query").getNumber();
    int[] lengths = new int[2 * depth + 1];
    lengths[2 * depth] = leaf.length;
    for (int i = 2 * depth - 1; i >= 0; i--) {
      int tag = i % 2 == 0 ? boolQuery : clause;
      lengths[i] =
          CodedOutputStream.computeTagSize(tag)
              + CodedOutputStream.computeUInt32SizeNoTag(lengths[i + 1])
              + lengths[i + 1];
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(lengths[0]);
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    for (int i = 0; i < 2 * depth; i++) {
      out.writeTag(i % 2 == 0 ? boolQuery : clause, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeUInt32NoTag(lengths[i + 1]);
    }
    out.writeRawBytes(leaf);
    out.flush();
    return bytes.toByteArray();
  }

  /** The gRPC status code a SearchEventRecords call of the given request bytes gets. */
  static String grpcStatusOfSearch(byte[] request) {
    byte[] framed =
        ByteBuffer.allocate(5 + request.length)
            .put((byte) 0)
            .putInt(request.length)
            .put(request)
            .array();
    AggregatedHttpResponse answer =
        WebClient.of("h2c://127.0.0.1:" + server.server.port())
            .execute(
                RequestHeaders.builder(
                        HttpMethod.POST, "/" + TimeSeriesGrpc.SERVICE_NAME + "/SearchEventRecords")
                    .contentType(MediaType.parse("application/grpc+proto"))
                    .add("te", "trailers")
                    .build(),
                HttpData.wrap(framed))
            .aggregate()
            .join();
    String status = answer.trailers().get("grpc-status", answer.headers().get("grpc-status"));
    return status
        + " "
        + answer.trailers().get("grpc-message", answer.headers().get("grpc-message", ""));
  }

  @ParameterizedTest(name = "[{index}] depth {0}")
  @ValueSource(ints = {3000, 50_000})
  void a_message_nested_past_protobufs_recursion_limit_is_invalid_argument_over_grpc(int depth)
      throws Exception {
    byte[] query = nestedBytes(depth);
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    SearchEventRecordsRequest.newBuilder()
        .setNamespace(NS)
        .setTimeInterval(interval())
        .build()
        .writeTo(request);
    CodedOutputStream out = CodedOutputStream.newInstance(request);
    out.writeTag(
        SearchEventRecordsRequest.getDescriptor().findFieldByName("search_query").getNumber(),
        WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(query.length);
    out.writeRawBytes(query);
    out.flush();

    String status = grpcStatusOfSearch(request.toByteArray());

    assertThat(status).startsWith(Status.Code.INVALID_ARGUMENT.value() + " ");
    assertThat(status).containsIgnoringCase("nest");
  }

  static Event event(Timestamp time) {
    return Event.newBuilder()
        .setTimeSeriesId("hostile")
        .setEventId("e")
        .setEventTime(time)
        .addEventItems(
            EventItem.newBuilder()
                .setEventItemKey(ByteString.copyFromUtf8("k"))
                .setEventItemValue(ByteString.copyFromUtf8("v")))
        .build();
  }

  @Test
  void a_grpc_timestamp_out_of_range_is_invalid_argument_naming_the_field() {
    long s = T.getEpochSecond();
    for (Timestamp bad :
        new Timestamp[] {
          ts(s, -1_000_000),
          ts(s, 1_000_000_000),
          ts(s, Integer.MAX_VALUE),
          ts(s, Integer.MIN_VALUE),
          ts(-1, 0),
          ts(253_402_300_800L, 0),
          ts(Long.MAX_VALUE, 0),
          ts(Long.MIN_VALUE, 0)
        }) {
      refusedOverGrpc(
          () ->
              grpc.writeEventRecordsSync(
                  WriteEventRecordsRequest.newBuilder()
                      .setNamespace(NS)
                      .addEvents(event(ts(s, 0)))
                      .addEvents(event(bad))
                      .build()),
          "events[1].eventTime: ");
      refusedOverGrpc(
          () ->
              grpc.readEventRecords(
                  ReadEventRecordsRequest.newBuilder()
                      .setNamespace(NS)
                      .setTimeSeriesId("hostile")
                      .setTimeInterval(TimeInterval.newBuilder().setStart(ts(s, 0)).setEnd(bad))
                      .build()),
          "timeInterval.end: ");
    }
    assertThat(
            server
                .post(
                    "ReadEventRecords",
                    "{\"namespace\": \""
                        + NS
                        + "\", \"timeSeriesId\": \"hostile\", "
                        + "\"timeInterval\": {\"start\": \"1970-01-01T00:00:00Z\", \"end\": \"9999-01-01T00:00:00Z\"}}")
                .body()
                .path("events"))
        .as("nothing written")
        .isEmpty();
  }

  @Test
  void a_grpc_bucket_width_out_of_range_is_invalid_argument_naming_the_field() {
    refusedOverGrpc(
        () ->
            grpc.aggregateEventRecords(
                AggregateEventRecordsRequest.newBuilder()
                    .setNamespace(NS)
                    .setTimeInterval(interval())
                    .setAggregationQuery(
                        AggregationQuery.newBuilder()
                            .setCountByTime(
                                io.varve.api.timeseries.v1.CountByTimeAggregation.newBuilder()
                                    .setBucketWidth(
                                        com.google.protobuf.Duration.newBuilder()
                                            .setSeconds(Long.MAX_VALUE))))
                    .build()),
        "aggregationQuery.countByTime.bucketWidth: ");
  }
}
