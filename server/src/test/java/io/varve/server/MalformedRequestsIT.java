package io.varve.server;

import static io.varve.server.Events.b64;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed requests: each gets a 4xx naming the offending field, and none writes anything (no
 * event of the series, no namespace).
 */
class MalformedRequestsIT {

  static final String NS = "malformed_it";
  static final String T = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS).toString();
  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_malformed_it", NS, "never_created");
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

  static String good(String id) {
    return "{\"timeSeriesId\": \"bad\", \"eventTime\": \""
        + T
        + "\", \"eventId\": \""
        + id
        + "\", \"eventItems\": [{\"eventItemKey\": \""
        + b64("k")
        + "\", \"eventItemValue\": \""
        + b64("v")
        + "\"}]}";
  }

  static String write(String... events) {
    return "{\"namespace\": \"" + NS + "\", \"events\": [" + String.join(",", events) + "]}";
  }

  static String event(String fields) {
    return "{\"timeSeriesId\": \"bad\", " + fields + "}";
  }

  static String items(String key, String value) {
    return "\"eventItems\": [{\"eventItemKey\": \""
        + key
        + "\", \"eventItemValue\": \""
        + value
        + "\"}]";
  }

  static String create(String namespace, String primary) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"persistence_configuration\": ["
        + primary
        + "]}";
  }

  static String read(String extra) {
    return "{\"namespace\": \"" + NS + "\", \"timeSeriesId\": \"bad\", " + extra + "}";
  }

  static final String INTERVAL =
      "\"timeInterval\": {\"start\": \"2020-01-01T00:00:00Z\", \"end\": \"2030-01-01T00:00:00Z\"}";
  static final String TP = "persistence_configuration[0].config.timePartition.";

  static Stream<Arguments> cases() {
    String big = b64(new byte[3 * 1024 * 1024]);
    String tooMany =
        IntStream.range(0, 1001).mapToObj(i -> good("m" + i)).collect(Collectors.joining(","));
    return Stream.of(
        Arguments.of("WriteEventRecordsSync", "{\"namespace\": ", 400, "body"),
        Arguments.of(
            "WriteEventRecordsSync",
            "{\"namespace\": \"" + NS + "\", \"evnts\": []}",
            400,
            "evnts"),
        Arguments.of(
            "WriteEventRecordsSync",
            "{\"namespace\": \"Bad-Name\", \"events\": [" + good("a") + "]}",
            400,
            "namespace"),
        Arguments.of(
            "WriteEventRecordsSync",
            "{\"namespace\": \"no_such_ns\", \"events\": [" + good("a") + "]}",
            404,
            ""),
        // a key given twice: the last one would write the event
        Arguments.of(
            "WriteEventRecordsSync",
            "{\"namespace\": \"never_created\", \"namespace\": \""
                + NS
                + "\", \"events\": ["
                + good("dup")
                + "]}",
            400,
            "namespace"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(good("dup").replace("\"eventId\"", "\"eventId\": \"first\", \"eventId\"")),
            400,
            "events[0].eventId"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(good("dup").replace("\"eventId\"", "\"event_id\": \"first\", \"eventId\"")),
            400,
            "events[0].eventId"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"config\": "
                    + "{\"timePartition\": {\"eventBuckets\": 0, \"eventBuckets\": 4}}}"),
            400,
            TP + "eventBuckets"),
        Arguments.of("WriteEventRecordsSync", write(), 400, "events"),
        Arguments.of("WriteEventRecordsSync", write(tooMany), 400, "events"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                good("a"),
                event(
                    "\"eventTime\": \"yesterday\", \"eventId\": \"b\", "
                        + items(b64("k"), b64("v")))),
            400,
            "events[1].eventTime"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(event("\"eventId\": \"b\", " + items(b64("k"), b64("v")))),
            400,
            "events[0].eventTime"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(good("a"), event("\"eventTime\": \"" + T + "\", " + items(b64("k"), b64("v")))),
            400,
            "events[1].eventId"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \""
                        + T
                        + "\", \"eventId\": \"c\", "
                        + items(b64("k"), "!!not base64!!"))),
            400,
            "events[0].eventItems[0].eventItemValue"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event("\"eventTime\": \"" + T + "\", \"eventId\": \"d\", " + "\"eventItems\": []")),
            400,
            "events[0].eventItems"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \""
                        + T
                        + "\", \"eventId\": \"d\", "
                        + "\"eventItems\": {\"k\": \"v\"}")),
            400,
            "events[0].eventItems"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event("\"eventTime\": \"" + T + "\", \"eventId\": \"e\", " + items("", b64("v")))),
            400,
            "events[0].eventItems[0].eventItemKey"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event("\"eventTime\": \"" + T + "\", \"eventId\": \"f\", " + items(b64("k"), big))),
            400,
            "events[0].eventItems[0].eventItemValue"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \""
                        // ten fraction digits: finer than nanoseconds (sub-millisecond digits
                        // are truncated, not refused)
                        + T.replace("Z", "")
                        + "1234567Z\", "
                        + "\"eventId\": \"g\", "
                        + items(b64("k"), b64("v")))),
            400,
            "events[0].eventTime"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                "{\"timeSeriesId\": \""
                    + "x".repeat(300)
                    + "\", \"eventTime\": \""
                    + T
                    + "\", \"eventId\": \"h\", "
                    + items(b64("k"), b64("v"))
                    + "}"),
            400,
            "events[0].timeSeriesId"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \""
                        + T
                        + "\", \"eventId\": \"i\", "
                        + "\"eventItems\": [{\"eventItemKey\": \""
                        + b64("k")
                        + "\", \"eventItemValue\": \"\"}, {\"eventItemKey\": \""
                        + b64("k")
                        + "\", \"eventItemValue\": \"\"}]")),
            400,
            "events[0].eventItems[1].eventItemKey"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \"2025-02-30T00:00:00Z\", \"eventId\": \"j\", "
                        + items(b64("k"), b64("v")))),
            400,
            "events[0].eventTime"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                good("a"),
                event(
                    "\"eventTime\": \"2025-03-01T24:00:00Z\", "
                        + "\"eventId\": \"k\", "
                        + items(b64("k"), b64("v")))),
            400,
            "events[1].eventTime"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \"2025-03-01T10:00:00+25:00\", "
                        + "\"eventId\": \"l\", "
                        + items(b64("k"), b64("v")))),
            400,
            "events[0].eventTime"),
        Arguments.of(
            "ReadEventRecords",
            read(
                "\"timeInterval\": {\"start\": \"2023-02-29T00:00:00Z\", "
                    + "\"end\": \"2030-01-01T00:00:00Z\"}"),
            400,
            "timeInterval.start"),
        Arguments.of("ReadEventRecords", read(INTERVAL + ", \"pageSize\": 0"), 400, "pageSize"),
        Arguments.of(
            "ReadEventRecords",
            read(
                "\"timeInterval\": {\"start\": \"2030-01-01T00:00:00Z\", "
                    + "\"end\": \"2020-01-01T00:00:00Z\"}"),
            400,
            "timeInterval.end"),
        Arguments.of("ReadEventRecords", read("\"pageSize\": 5"), 400, "timeInterval"),
        Arguments.of(
            "ReadEventRecords",
            "{\"namespace\": \"" + NS + "\", " + INTERVAL + "}",
            400,
            "timeSeriesId"),
        Arguments.of(
            "ReadEventRecords",
            read(INTERVAL + ", \"pageToken\": \"bm90IGEgdG9rZW4\""),
            400,
            "pageToken"),
        Arguments.of(
            "ReadEventRecords",
            read(INTERVAL + ", \"totalRecordLimit\": \"many\""),
            400,
            "totalRecordLimit"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"config\": "
                    + "{\"timePartition\": {\"eventBuckets\": 0}}}"),
            400,
            TP + "eventBuckets"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"config\": "
                    + "{\"timePartition\": {\"secondsPerTimeSlice\": 5000, \"secondsPerTimeBucket\": 3000}}}"),
            400,
            TP + "secondsPerTimeSlice"),
        Arguments.of(
            "CreateNamespace", create("1abc", "{\"id\": \"PRIMARY_STORAGE\"}"), 400, "namespace"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"config\": " + "{\"acceptLimit\": \"-5s\"}}"),
            400,
            "persistence_configuration[0].config.acceptLimit"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"lifecycleConfigs\": "
                    + "{\"lifecycleConfig\": [{\"type\": \"retention\", \"config\": {\"close_after\": \"100h\", "
                    + "\"delete_after\": \"50h\"}}]}}"),
            400,
            "persistence_configuration[0].lifecycleConfigs.lifecycleConfig[0].config.delete_after"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"config\": "
                    + "{\"consistencyTarget\": \"SOMETIMES\"}}"),
            400,
            "persistence_configuration[0].config.consistencyTarget"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": "
                    + "{\"type\": \"OPENSEARCH\", \"dataset\": \"idx\"}}"),
            400,
            "persistence_configuration"),
        Arguments.of(
            "CreateNamespace",
            create(
                "never_created",
                "{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\": "
                    + "{\"dataset\": \"system_auth\"}}"),
            400,
            "persistence_configuration[0].physicalStorage.dataset"));
  }

  static String search(String rpc, String query) {
    return "{\"namespace\": \""
        + NS
        + "\", "
        + INTERVAL
        + ", \"searchQuery\": "
        + query
        + (rpc.equals("AggregateEventRecords") ? ", \"aggregationQuery\": {\"count\": {}}}" : "}");
  }

  /** A search query of {@code depth} boolean queries around one equals, as JSON. */
  static String nestedQuery(int depth) {
    return "{\"booleanQuery\": {\"searchQuery\": [".repeat(depth)
        + "{\"equals\": {\"eventItemKey\": \""
        + b64("k")
        + "\", \"eventItemValue\": \""
        + b64("v")
        + "\"}}"
        + "]}}".repeat(depth);
  }

  static Stream<Arguments> overLimits() {
    String mib20 = "A".repeat(20 * 1024 * 1024);
    String depth9 = "searchQuery" + ".booleanQuery.searchQuery[0]".repeat(8) + ".booleanQuery";
    return Stream.of(
        Arguments.of(
            "WriteEventRecordsSync",
            "[".repeat(100_000),
            "body",
            "nesting depth (129) exceeds the maximum allowed (128)"),
        Arguments.of(
            "WriteEventRecordsSync",
            "{\"a\": ".repeat(50_000) + "1" + "}".repeat(50_000),
            "body",
            "nesting depth (129) exceeds the maximum allowed (128)"),
        Arguments.of(
            "SearchEventRecords",
            search("SearchEventRecords", nestedQuery(3000)),
            "body",
            "nesting depth (129) exceeds the maximum allowed (128)"),
        Arguments.of(
            "AggregateEventRecords",
            search("AggregateEventRecords", nestedQuery(3000)),
            "body",
            "nesting depth (129) exceeds the maximum allowed (128)"),
        Arguments.of(
            "SearchEventRecords",
            search("SearchEventRecords", nestedQuery(9)),
            depth9,
            "nested 9 deep (expected: boolean queries nested at most 8 deep, the server's maxQueryDepth)"),
        Arguments.of(
            "AggregateEventRecords",
            search("AggregateEventRecords", nestedQuery(40)),
            depth9,
            "nested 9 deep (expected: boolean queries nested at most 8 deep, the server's maxQueryDepth)"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                event(
                    "\"eventTime\": \"" + T + "\", \"eventId\": \"m\", " + items(b64("k"), mib20))),
            "events[0].eventItems[0].eventItemValue",
            "(expected: at most 2097152 bytes)"),
        Arguments.of(
            "WriteEventRecordsSync",
            write(
                "{\"timeSeriesId\": \""
                    + mib20
                    + "\", \"eventTime\": \""
                    + T
                    + "\", \"eventId\": \"n\", "
                    + items(b64("k"), b64("v"))
                    + "}"),
            "events[0].timeSeriesId",
            "256"),
        Arguments.of(
            "WriteEventRecordsSync",
            "{\"" + mib20 + "\": 1}",
            "body",
            "exceeds the maximum allowed (50000)"),
        Arguments.of(
            "ReadEventRecords",
            read(INTERVAL + ", \"pageSize\": " + "9".repeat(1001)),
            "body",
            "exceeds the maximum allowed (1000)"),
        Arguments.of(
            "ReadEventRecords",
            read(INTERVAL + ", \"pageSize\": \"" + "9".repeat(5_000_000) + "\""),
            "pageSize",
            "a number of at most 1000 characters"));
  }

  @ParameterizedTest(name = "[{index}] {0} -> {2}")
  @MethodSource("overLimits")
  void a_body_over_a_parser_or_query_limit_is_invalid_argument_naming_the_limit(
      String rpc, String body, String field, String limit) {
    TestServer.Reply reply = server.post(rpc, body);

    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(400);
    assertThat(reply.body().path("error").path("code").asText()).isEqualTo("INVALID_ARGUMENT");
    assertThat(reply.errorField()).isEqualTo(field);
    assertThat(reply.errorMessage()).startsWith(field + ": ").contains(limit);
    assertThat(server.post("ReadEventRecords", read(INTERVAL)).body().path("events"))
        .as("nothing written")
        .isEmpty();
  }

  @ParameterizedTest(name = "[{index}] {0} -> {3}")
  @MethodSource("cases")
  void is_refused_naming_the_field_and_writes_nothing(
      String rpc, String body, int status, String field) {
    TestServer.Reply reply = server.post(rpc, body);
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(status);
    assertThat(reply.body().path("error").path("message").asText()).isNotEmpty();
    if (!field.isEmpty()) {
      assertThat(reply.errorField()).as(reply.body().toString()).isEqualTo(field);
      assertThat(reply.errorMessage()).startsWith(field);
    }
    JsonNode events = server.post("ReadEventRecords", read(INTERVAL)).body();
    assertThat(events.path("events")).as("nothing written").isEmpty();
    assertThat(server.post("GetNamespace", "{\"namespace\": \"never_created\"}").status())
        .isEqualTo(404);
  }
}
