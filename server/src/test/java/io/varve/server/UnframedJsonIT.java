package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JSON posted to a gRPC path ({@code /varve.timeseries.v1.TimeSeries/<Rpc>}, what the {@code
 * /docs/} page sends) is read by the same codec as {@code POST /v1/<Rpc>}: the same refusals,
 * naming the same field, as a 400, never an internal error or a dropped connection.
 */
class UnframedJsonIT {

  static final String NS = "unframed_it";
  static final String SERVICE = "/varve.timeseries.v1.TimeSeries/";
  static final String T = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS).toString();
  static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_unframed_it", NS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + NS
                + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\"}]}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Status and raw body of JSON posted to the gRPC path of {@code rpc}. */
  record Answer(int status, String body) {}

  static Answer unframed(String rpc, String json) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.base() + SERVICE + rpc))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body());
  }

  static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  static String event(String id, String time, String key) {
    return "{\"timeSeriesId\": \"s\", \"eventTime\": \""
        + time
        + "\", \"eventId\": \""
        + id
        + "\", \"eventItems\": [{\"eventItemKey\": \""
        + key
        + "\", \"eventItemValue\": \""
        + b64("v")
        + "\"}]}";
  }

  static String write(String... events) {
    return "{\"namespace\": \"" + NS + "\", \"events\": [" + String.join(",", events) + "]}";
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        Arguments.of(
            "February 30th",
            "WriteEventRecordsSync",
            write(event("a", "2025-02-30T00:00:00Z", b64("k"))),
            "events[0].eventTime"),
        Arguments.of(
            "hour 24",
            "WriteEventRecordsSync",
            write(event("a", "2025-01-01T24:00:00Z", b64("k"))),
            "events[0].eventTime"),
        Arguments.of(
            "offset +25:00",
            "WriteEventRecordsSync",
            write(event("a", "2025-01-01T00:00:00+25:00", b64("k"))),
            "events[0].eventTime"),
        Arguments.of(
            "objects nested 50,000 deep",
            "WriteEventRecordsSync",
            "{\"a\": ".repeat(50_000) + "1" + "}".repeat(50_000),
            "body"),
        Arguments.of("100,000 [", "WriteEventRecordsSync", "[".repeat(100_000), "body"),
        Arguments.of(
            "a page size of 5,000,000 digits",
            "ReadEventRecords",
            "{\"namespace\": \""
                + NS
                + "\", \"timeSeriesId\": \"s\", \"pageSize\": \""
                + "9".repeat(5_000_000)
                + "\"}",
            "pageSize"),
        Arguments.of(
            "an unknown field",
            "WriteEventRecordsSync",
            "{\"namespace\": \"" + NS + "\", \"evnts\": []}",
            "evnts"),
        Arguments.of(
            "bytes that are not base64",
            "WriteEventRecordsSync",
            write(event("a", T, "!!not base64!!")),
            "events[0].eventItems[0].eventItemKey"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("hostile")
  void hostile_json_on_a_grpc_path_is_refused_naming_the_field(
      String name, String rpc, String json, String field) throws Exception {
    Answer answer = unframed(rpc, json);
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    var error = TestServer.JSON.readTree(answer.body());
    assertThat(error.path("grpc-code").asText()).as(answer.body()).isEqualTo("INVALID_ARGUMENT");
    assertThat(error.path("message").asText()).as("names the field").startsWith(field + ": ");
    // the refusal on the gRPC path is the one of /v1/
    TestServer.Reply v1 = server.post(rpc, json);
    assertThat(v1.status()).isEqualTo(400);
    assertThat(v1.errorField()).isEqualTo(field);
  }

  @Test
  void valid_json_on_a_grpc_path_writes_and_reads_in_the_json_form_of_v1() throws Exception {
    Answer written = unframed("WriteEventRecordsSync", write(event("ok", T, b64("k"))));
    assertThat(written.status()).as(written.body()).isEqualTo(200);
    assertThat(TestServer.JSON.readTree(written.body()).path("writtenCount").asInt()).isEqualTo(1);
    assertThat(written.body()).as("empty lists printed, as on /v1/").contains("\"errors\":[]");

    Answer read =
        unframed(
            "ReadEventRecords",
            "{\"namespace\": \""
                + NS
                + "\", \"timeSeriesId\": \"s\", "
                + "\"timeInterval\": {\"start\": \"2020-01-01T00:00:00Z\", \"end\": \"2100-01-01T00:00:00Z\"}}");
    assertThat(read.status()).as(read.body()).isEqualTo(200);
    var events = TestServer.JSON.readTree(read.body()).path("events");
    assertThat(events).hasSize(1);
    assertThat(events.get(0).path("eventTime").asText()).isEqualTo(T);
    assertThat(events.get(0).path("eventId").asText()).isEqualTo("ok");
  }
}
