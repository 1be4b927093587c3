package io.varve.server.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import io.grpc.MethodDescriptor;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.EventError;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.core.error.InvalidFieldException;
import io.varve.server.transport.Transports;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProtoJsonTest {

  private static CreateNamespaceRequest create(String json) {
    return ProtoJson.parse(json, CreateNamespaceRequest.getDefaultInstance());
  }

  private static WriteEventRecordsRequest write(String json) {
    return ProtoJson.parse(json, WriteEventRecordsRequest.getDefaultInstance());
  }

  private static ReadEventRecordsRequest read(String json) {
    return ProtoJson.parse(json, ReadEventRecordsRequest.getDefaultInstance());
  }

  /** A CreateNamespace body whose only entry has {@code config: {timePartition: <partition>}}. */
  private static String partition(String partition) {
    return "{\"namespace\": \"n\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", "
        + "\"config\": {\"timePartition\": "
        + partition
        + "}}]}";
  }

  private static TimePartition partitionOf(CreateNamespaceRequest request) {
    return request.getPersistenceConfiguration(0).getConfig().getTimePartition();
  }

  /** A CreateNamespace body whose only entry has {@code config: {acceptLimit: <value>}}. */
  private static String acceptLimit(String value) {
    return "{\"persistence_configuration\": [{\"config\": {\"acceptLimit\": " + value + "}}]}";
  }

  /** A write of one event with the given item key, value and event time (all JSON values). */
  private static String event(String key, String value, String time) {
    return "{\"namespace\": \"n\", \"events\": [{\"timeSeriesId\": \"s\", \"eventTime\": "
        + time
        + ", \"eventId\": \"e\", \"eventItems\": [{\"eventItemKey\": "
        + key
        + ", \"eventItemValue\": "
        + value
        + "}]}]}";
  }

  @Test
  void accepts_snake_case_and_camel_case_keys_alike() {
    String snake =
        """
        {"namespace": "n", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "physical_storage": {"type": "CASSANDRA", "dataset": "ks"},
          "config": {"time_partition": {"seconds_per_time_slice": 7200, "second_per_time_bucket": 3600,
              "event_buckets": 2},
            "queue_buffering": {"coalesce": "2s", "buffer_capacity": 1024},
            "consistency_scope": "LOCAL", "consistency_target": "STRONG", "accept_limit": "1h"},
          "lifecycle_configs": {"lifecycle_config": [{"type": "retention",
            "config": {"close_after": "2h", "delete_after": "3h"}}]}}]}
        """;
    String camel =
        """
        {"namespace": "n", "persistenceConfiguration": [{"id": "PRIMARY_STORAGE",
          "physicalStorage": {"type": "CASSANDRA", "dataset": "ks"},
          "config": {"timePartition": {"secondsPerTimeSlice": 7200, "secondPerTimeBucket": 3600,
              "eventBuckets": 2},
            "queueBuffering": {"coalesce": "2s", "bufferCapacity": 1024},
            "consistencyScope": "LOCAL", "consistencyTarget": "STRONG", "acceptLimit": "1h"},
          "lifecycleConfigs": {"lifecycleConfig": [{"type": "retention",
            "config": {"closeAfter": "2h", "deleteAfter": "3h"}}]}}]}
        """;

    CreateNamespaceRequest fromSnake = create(snake);

    assertThat(fromSnake).isEqualTo(create(camel));
    PersistenceConfiguration entry = fromSnake.getPersistenceConfiguration(0);
    assertThat(entry.getPhysicalStorage().getDataset()).isEqualTo("ks");
    assertThat(entry.getConfig().getTimePartition().getSecondPerTimeBucket()).isEqualTo(3600);
    assertThat(entry.getConfig().getQueueBuffering().getBufferCapacity()).isEqualTo(1024);
    assertThat(
            entry
                .getLifecycleConfigs()
                .getLifecycleConfig(0)
                .getConfig()
                .getDeleteAfter()
                .getSeconds())
        .isEqualTo(3 * 3600);
  }

  @ParameterizedTest(name = "[{index}] eventBuckets: {0}")
  @ValueSource(strings = {"4", "\"4\"", "\" 4 \"", "4.0", "\"4e0\"", "\"0.4e1\""})
  void accepts_numbers_as_numbers_or_strings(String json) {
    assertThat(partitionOf(create(partition("{\"eventBuckets\": " + json + "}"))).getEventBuckets())
        .isEqualTo(4);
  }

  @Test
  void accepts_64_bit_integers_as_strings_as_the_reference_writes_them() {
    TimePartition p =
        partitionOf(
            create(
                partition(
                    "{\"secondsPerTimeSlice\": \"129600\", "
                        + "\"secondPerTimeBucket\": \"3600\", \"eventBuckets\": 4}")));

    assertThat(p.getSecondsPerTimeSlice()).isEqualTo(129_600);
    assertThat(p.getSecondPerTimeBucket()).isEqualTo(3_600);
    assertThat(read("{\"pageSize\": \"100\", \"totalRecordLimit\": 1000}").getPageSize())
        .isEqualTo(100);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "129600s,    129600, 0",
    "1s,         1,      0",
    "1.5s,       1,      500000000",
    "0.000000001s, 0,    1",
    "250ms,      0,      250000000",
    "1500ms,     1,      500000000",
    "0.5ms,      0,      500000",
    "90m,        5400,   0",
    "1.5h,       5400,   0",
    "36h,        129600, 0",
    "15d,        1296000, 0",
    "16d,        1382400, 0",
    "0s,         0,      0",
    "' 60s ',    60,     0",
    "3652500d,   315576000000, 0"
  })
  void reads_durations_in_every_unit(String text, long seconds, int nanos) {
    var d =
        create(acceptLimit("\"" + text + "\""))
            .getPersistenceConfiguration(0)
            .getConfig()
            .getAcceptLimit();

    assertThat(d.getSeconds()).isEqualTo(seconds);
    assertThat(d.getNanos()).isEqualTo(nanos);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "129600",
        "\"129600\"",
        "\"-5s\"",
        "\"5 s\"",
        "\"5w\"",
        "\"5S\"",
        "\"PT5S\"",
        "\"1e3s\"",
        "\"1.5.0s\"",
        "\"s\"",
        "\"\"",
        "\"3652501d\"",
        "{\"seconds\": 5}",
        "true"
      })
  void refuses_durations_without_a_unit_or_out_of_range(String json) {
    assertThatThrownBy(() -> create(acceptLimit(json)))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e ->
                assertThat(e.field()).isEqualTo("persistence_configuration[0].config.acceptLimit"));
  }

  @Test
  void accepts_comments_and_trailing_commas() {
    String json =
        """
        // a namespace for traces
        {
          "namespace": "tracing", /* the name */
          "persistence_configuration": [
            {
              "id": "PRIMARY_STORAGE", // primary store
              "config": {"timePartition": {"eventBuckets": 4,},},
            },
          ],
        }
        """;

    CreateNamespaceRequest request = create(json);

    assertThat(request.getNamespace()).isEqualTo("tracing");
    assertThat(request.getPersistenceConfigurationCount()).isEqualTo(1);
    assertThat(partitionOf(request).getEventBuckets()).isEqualTo(4);
  }

  @Test
  void an_empty_body_is_an_empty_request_and_null_is_absent() {
    assertThat(read("")).isEqualTo(ReadEventRecordsRequest.getDefaultInstance());
    assertThat(read("  ")).isEqualTo(ReadEventRecordsRequest.getDefaultInstance());
    ReadEventRecordsRequest request =
        read("{\"namespace\": null, \"pageSize\": null, \"eventFilters\": null}");
    assertThat(request.hasPageSize()).isFalse();
    assertThat(request).isEqualTo(ReadEventRecordsRequest.getDefaultInstance());
  }

  static Stream<Arguments> refused() {
    String tp = "persistence_configuration[0].config.timePartition";
    return Stream.of(
        // unknown fields, named by their path as written
        Arguments.of(
            "unknown top-level field",
            create(),
            "{\"namespac\": \"n\"}",
            "namespac",
            "unknown field"),
        Arguments.of(
            "unknown nested field",
            create(),
            partition("{\"eventBucket\": 4}"),
            tp + ".eventBucket",
            "unknown field"),
        Arguments.of(
            "unknown field in an index entry",
            create(),
            "{\"persistence_configuration\": [{}, {\"config\": {\"indexConfig\": {\"refresh\": \"1s\"}}}]}",
            "persistence_configuration[1].config.indexConfig.refresh",
            "unknown field"),
        Arguments.of(
            "unknown field in an event item",
            write(),
            "{\"events\": [{\"eventItems\": [{\"key\": \"aw==\"}]}]}",
            "events[0].eventItems[0].key",
            "unknown field"),
        Arguments.of(
            "keys are case sensitive",
            write(),
            "{\"Namespace\": \"n\"}",
            "Namespace",
            "unknown field"),
        // wrong types
        Arguments.of(
            "a word for a number",
            create(),
            partition("{\"eventBuckets\": \"four\"}"),
            tp + ".eventBuckets",
            "a number"),
        Arguments.of(
            "a fraction for an integer",
            create(),
            partition("{\"eventBuckets\": 4.5}"),
            tp + ".eventBuckets",
            "an integer in"),
        Arguments.of(
            "an int32 overflow",
            create(),
            partition("{\"eventBuckets\": 2147483648}"),
            tp + ".eventBuckets",
            "an integer in -2147483648..2147483647"),
        Arguments.of(
            "an int64 overflow",
            create(),
            partition("{\"secondsPerTimeSlice\": \"9223372036854775808\"}"),
            tp + ".secondsPerTimeSlice",
            "an integer in"),
        Arguments.of(
            "an object for a number",
            create(),
            partition("{\"eventBuckets\": {}}"),
            tp + ".eventBuckets",
            "a number"),
        Arguments.of(
            "a number for a string, named as written in snake_case",
            create(),
            "{\"persistence_configuration\": [{\"physical_storage\": {\"type\": 5}}]}",
            "persistence_configuration[0].physical_storage.type",
            "a string"),
        Arguments.of(
            "a number for a string", write(), "{\"namespace\": 5}", "namespace", "a string"),
        Arguments.of("an object for a list", write(), "{\"events\": {}}", "events", "a JSON array"),
        Arguments.of(
            "a string for a message",
            create(),
            "{\"persistence_configuration\": [{\"config\": \"x\"}]}",
            "persistence_configuration[0].config",
            "a JSON object"),
        Arguments.of(
            "a list of strings for a list of messages",
            write(),
            "{\"events\": [\"e\"]}",
            "events[0]",
            "a JSON object"),
        Arguments.of(
            "a list for a map",
            create(),
            "{\"persistence_configuration\": [{\"config\": {\"indexConfig\": {\"fieldMapping\": []}}}]}",
            "persistence_configuration[0].config.indexConfig.fieldMapping",
            "a JSON object"),
        Arguments.of(
            "a number as a map value",
            create(),
            "{\"persistence_configuration\": [{\"config\": {\"indexConfig\": {\"fieldMapping\": {\"tags.app\": 5}}}}]}",
            "persistence_configuration[0].config.indexConfig.fieldMapping.tags.app",
            "a string"),
        Arguments.of(
            "a boolean for a number", read(), "{\"pageSize\": true}", "pageSize", "a number"),
        // bytes and times
        Arguments.of(
            "bytes that are not base64",
            write(),
            event("\"!!not base64!!\"", "\"aW9z\"", "\"2024-10-03T21:24:23.988Z\""),
            "events[0].eventItems[0].eventItemKey",
            "a base64 string"),
        Arguments.of(
            "standard and URL-safe alphabets mixed",
            write(),
            event("\"+_8=\"", "\"aW9z\"", "\"2024-10-03T21:24:23.988Z\""),
            "events[0].eventItems[0].eventItemKey",
            "a base64 string"),
        Arguments.of(
            "a number for bytes",
            write(),
            event("\"aW9z\"", "5", "\"2024-10-03T21:24:23.988Z\""),
            "events[0].eventItems[0].eventItemValue",
            "a base64 string"),
        Arguments.of(
            "a time without a zone",
            write(),
            event("\"aW9z\"", "\"aW9z\"", "\"2024-10-03T21:24:23.988\""),
            "events[0].eventTime",
            "RFC 3339"),
        Arguments.of(
            "a time with a space",
            write(),
            event("\"aW9z\"", "\"aW9z\"", "\"2024-10-03 21:24:23Z\""),
            "events[0].eventTime",
            "RFC 3339"),
        Arguments.of(
            "a date alone",
            write(),
            event("\"aW9z\"", "\"aW9z\"", "\"2024-10-03\""),
            "events[0].eventTime",
            "RFC 3339"),
        Arguments.of(
            "epoch milliseconds",
            write(),
            event("\"aW9z\"", "\"aW9z\"", "1727990663988"),
            "events[0].eventTime",
            "RFC 3339"),
        Arguments.of(
            "a word for a time",
            read(),
            "{\"timeInterval\": {\"start\": \"yesterday\"}}",
            "timeInterval.start",
            "RFC 3339"),
        // bodies
        Arguments.of("a list for a body", read(), "[]", "body", "a JSON object"),
        Arguments.of("broken JSON", read(), "{\"namespace\": ", "body", "not valid JSON"),
        Arguments.of(
            "single-quoted strings", read(), "{'namespace': 'n'}", "body", "not valid JSON"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("refused")
  void refuses_naming_the_path(
      String name, Message prototype, String json, String field, String expected) {
    assertThatThrownBy(() -> ProtoJson.parse(json, prototype))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").contains(expected);
            });
  }

  private static Message create() {
    return CreateNamespaceRequest.getDefaultInstance();
  }

  private static Message write() {
    return WriteEventRecordsRequest.getDefaultInstance();
  }

  private static Message read() {
    return ReadEventRecordsRequest.getDefaultInstance();
  }

  static Stream<Arguments> duplicates() {
    return Stream.of(
        Arguments.of(
            write(),
            "{\"namespace\": \"a\", \"namespace\": \"b\"}",
            "namespace",
            "namespace: given twice, at line 1, column 31"
                + " (expected: each key at most once in an object)"),
        Arguments.of(
            write(),
            "{\"namespace\": null, \"namespace\": \"b\"}",
            "namespace",
            "namespace: given twice"),
        Arguments.of(
            write(),
            "{\"events\": [{}, {\"eventId\": \"x\",\n \"eventId\": \"x\"}]}",
            "events[1].eventId",
            "events[1].eventId: given twice, at line 2, column 11"),
        Arguments.of(
            create(),
            partition("{\"eventBuckets\": 4, \"eventBuckets\": 8}"),
            "persistence_configuration[0].config.timePartition.eventBuckets",
            "given twice"),
        Arguments.of(
            create(),
            "{\"persistence_configuration\": [{\"config\": {\"slos\": {\"ReadEventRecords\": {},"
                + " \"ReadEventRecords\": {}}}}]}",
            "persistence_configuration[0].config.slos.ReadEventRecords",
            "given twice"),
        Arguments.of(
            write(),
            "{\"events\": [{\"event_id\": \"x\", \"eventId\": \"y\"}]}",
            "events[0].eventId",
            "events[0].eventId: given twice, also as event_id"
                + " (expected: each key at most once in an object, in either spelling)"),
        Arguments.of(
            create(),
            "{\"persistenceConfiguration\": [], \"persistence_configuration\": null}",
            "persistence_configuration",
            "also as persistenceConfiguration"),
        Arguments.of(write(), "[{\"a\": 1, \"a\": 2}]", "[0].a", "[0].a: given twice"));
  }

  @ParameterizedTest(name = "[{index}] {2}")
  @MethodSource("duplicates")
  void a_key_given_twice_in_one_object_is_refused_naming_its_path(
      Message prototype, String json, String field, String message) {
    assertThatThrownBy(() -> ProtoJson.parse(json, prototype))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").contains(message);
            });
  }

  @Test
  void the_same_key_in_sibling_objects_is_taken() {
    WriteEventRecordsRequest request =
        write("{\"events\": [{\"eventId\": \"a\"}, {\"event_id\": \"b\"}, {\"eventId\": \"c\"}]}");

    assertThat(request.getEventsList())
        .extracting(e -> e.getEventId())
        .containsExactly("a", "b", "c");
  }

  @Test
  void two_members_of_a_oneof_are_refused_naming_both() {
    // protobuf keeps the last member set: a delete by keys would silently become match_all
    assertThatThrownBy(
            () ->
                ProtoJson.parse(
                    "{\"predicate\": {\"match_keys\": {\"keys\": [\"YQ==\"]},"
                        + " \"match_all\": {}}}",
                    io.varve.api.kv.v1.DeleteItemsRequest.getDefaultInstance()))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessage(
            "predicate.match_all: given with predicate.matchKeys (expected: one of matchAll,"
                + " matchKeys, matchRange, not two)");
    assertThat(
            ProtoJson.parse(
                    "{\"predicate\": {\"match_all\": {}, \"match_keys\": null}}",
                    io.varve.api.kv.v1.DeleteItemsRequest.getDefaultInstance())
                .getPredicate()
                .hasMatchAll())
        .as("a member given as null is absent")
        .isTrue();
  }

  @Test
  void unknown_field_error_lists_the_known_fields_in_camel_case() {
    assertThatThrownBy(() -> create(partition("{\"eventBucket\": 4}")))
        .hasMessageContaining(
            "unknown field (expected one of: secondsPerTimeSlice, secondPerTimeBucket, "
                + "secondsPerTimeBucket, eventBuckets, secondsPerSlice, auto)");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "+/8=,     standard with padding",
    "+/8,      standard without padding",
    "-_8=,     URL-safe with padding",
    "-_8,      URL-safe without padding"
  })
  void accepts_base64_in_the_standard_and_url_safe_alphabets(String base64, String description) {
    var item =
        write(event("\"" + base64 + "\"", "\"aW9z\"", "\"2024-10-03T21:24:23.988Z\""))
            .getEvents(0)
            .getEventItems(0);

    assertThat(item.getEventItemKey())
        .isEqualTo(ByteString.copyFrom(new byte[] {(byte) 0xfb, (byte) 0xff}));
    assertThat(item.getEventItemValue().toStringUtf8()).isEqualTo("ios");
  }

  @Test
  void empty_base64_is_empty_bytes() {
    var item =
        write(event("\"aW9z\"", "\"\"", "\"2024-10-03T21:24:23.988Z\""))
            .getEvents(0)
            .getEventItems(0);

    assertThat(item.getEventItemValue()).isEqualTo(ByteString.EMPTY);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "2024-10-03T21:24:23.988Z,       2024-10-03T21:24:23.988Z",
    "2024-10-03T21:24:23Z,           2024-10-03T21:24:23Z",
    "2024-10-03T23:24:23.988+02:00,  2024-10-03T21:24:23.988Z",
    "2024-10-03T16:24:23.988-05:00,  2024-10-03T21:24:23.988Z",
    "2024-10-03T21:24:23.123456789Z, 2024-10-03T21:24:23.123456789Z",
    "1970-01-01T00:00:00Z,           1970-01-01T00:00:00Z"
  })
  void reads_rfc_3339_times(String text, Instant expected) {
    var time = write(event("\"aW9z\"", "\"aW9z\"", "\"" + text + "\"")).getEvents(0).getEventTime();

    assertThat(Instant.ofEpochSecond(time.getSeconds(), time.getNanos())).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "2024-10-03t21:24:23.988z,       2024-10-03T21:24:23.988Z",
    "2024-10-03T21:24:23.988-00:00,  2024-10-03T21:24:23.988Z",
    "2024-10-04T03:00:00+05:30,      2024-10-03T21:30:00Z",
    "2024-10-03T21:24:23.5Z,         2024-10-03T21:24:23.500Z",
    "2024-02-29T00:00:00Z,           2024-02-29T00:00:00Z",
    "2024-10-04T00:00:00+23:59,      2024-10-03T00:01:00Z",
    "9999-12-31T23:59:59.999Z,       9999-12-31T23:59:59.999Z"
  })
  void reads_rfc_3339_times_with_any_offset_and_fraction(String text, Instant expected) {
    reads_rfc_3339_times(text, expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2025-02-30T00:00:00Z          | day 30 does not exist in 2025-02, which has 28 days",
        "2023-02-29T00:00:00Z          | day 29 does not exist in 2023-02, which has 28 days",
        "2025-04-31T00:00:00Z          | day 31 does not exist in 2025-04, which has 30 days",
        "2025-01-00T00:00:00Z          | day 00 does not exist",
        "2025-13-01T00:00:00Z          | month 13 is out of range 01..12",
        "2025-00-01T00:00:00Z          | month 00 is out of range 01..12",
        "2025-01-01T24:00:00Z          | hour 24 is out of range 00..23",
        "2025-01-01T23:60:00Z          | minute 60 is out of range 00..59",
        "2025-01-01T23:59:60Z          | second 60 is out of range 00..59",
        "2025-01-01T00:00:00+25:00     | offset hour 25 is out of range 00..23",
        "2025-01-01T00:00:00-24:00     | offset hour 24 is out of range 00..23",
        "2025-01-01T00:00:00+05:60     | offset minute 60 is out of range 00..59",
        "2025-01-01T00:00:00+0530      | not of the form",
        "2025-01-01T00:00:00.Z         | not of the form",
        "2025-01-01T00:00:00.1234567891Z | more than 9 digits",
        "+2025-01-01T00:00:00Z         | not of the form",
        "25-01-01T00:00:00Z            | not of the form",
        "2025-1-01T00:00:00Z           | not of the form",
        "2025-01-01T00:00Z             | not of the form",
        "2025-01-01T00:00:00 Z         | not of the form",
        "２０２５-01-01T00:00:00Z         | not of the form"
      })
  void refuses_times_that_do_not_exist_naming_field_value_and_form(String text, String problem) {
    assertThatThrownBy(() -> write(event("\"aW9z\"", "\"aW9z\"", "\"" + text + "\"")))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo("events[0].eventTime");
              assertThat(e.getMessage())
                  .startsWith("events[0].eventTime: \"" + text + "\" (expected: an RFC 3339 time")
                  .contains(problem);
            });
    assertThatThrownBy(
            () ->
                read(
                    "{\"timeInterval\": {\"start\": \"2024-10-03T21:24:23Z\", \"end\": \""
                        + text
                        + "\"}}"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("timeInterval.end"));
  }

  private static String nestedArrays(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  static Stream<Arguments> overParserLimits() {
    return Stream.of(
        Arguments.of(
            "100,000 [",
            "[".repeat(100_000),
            "Document nesting depth (129) exceeds the maximum allowed (128)"),
        Arguments.of(
            "arrays nested 129 deep",
            "{\"events\": " + nestedArrays(128) + "}",
            "exceeds the maximum allowed (128)"),
        Arguments.of(
            "objects nested 50,000 deep",
            "{\"a\": ".repeat(50_000) + "1" + "}".repeat(50_000),
            "exceeds the maximum allowed (128)"),
        Arguments.of(
            "a number of 1001 digits",
            "{\"pageSize\": " + "9".repeat(1001) + "}",
            "exceeds the maximum allowed (1000)"),
        Arguments.of(
            "a key of 50,001 characters",
            "{\"" + "k".repeat(50_001) + "\": 1}",
            "exceeds the maximum allowed (50000)"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("overParserLimits")
  void a_body_over_a_parser_limit_is_refused_naming_the_limit(
      String name, String json, String limit) {
    assertThatThrownBy(() -> read(json))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo("body");
              assertThat(e.getMessage())
                  .startsWith("body: over a limit of the JSON reader: ")
                  .contains(limit)
                  .doesNotContain("StreamReadConstraints");
            });
  }

  @Test
  void a_body_at_the_nesting_limit_is_read() {
    assertThatThrownBy(() -> read("{\"pageSize\": " + nestedArrays(127) + "}"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("pageSize"));
  }

  @Test
  void strings_are_limited_by_the_body_size_not_by_the_parser() {
    String value = "x".repeat(21 * 1024 * 1024);
    ProtoJson json = new ProtoJson(32 * 1024 * 1024);

    assertThat(
            json.read(
                    "{\"timeSeriesId\": \"" + value + "\"}",
                    ReadEventRecordsRequest.getDefaultInstance())
                .getTimeSeriesId())
        .hasSize(value.length());
    assertThatThrownBy(
            () ->
                new ProtoJson(1024 * 1024)
                    .read(
                        "{\"timeSeriesId\": \"" + value + "\"}",
                        ReadEventRecordsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e ->
                assertThat(e.getMessage())
                    .startsWith("body: over a limit of the JSON reader: ")
                    .contains("1048576"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(strings = {"1e400", "-1e400", "\"1e400\"", "\"NaN\"", "\"Infinity\""})
  void numbers_out_of_range_are_refused_naming_the_field(String number) {
    assertThatThrownBy(() -> read("{\"pageSize\": " + number + "}"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("pageSize"));
  }

  @Test
  void a_duration_of_a_million_digits_is_refused_unread() {
    assertThatThrownBy(() -> create(acceptLimit("\"" + "9".repeat(1_000_000) + "s\"")))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e ->
                assertThat(e.field()).isEqualTo("persistence_configuration[0].config.acceptLimit"));
  }

  @Test
  void a_number_as_a_long_string_is_refused_unread() {
    assertThatThrownBy(() -> read("{\"pageSize\": \"" + "9".repeat(1_000_000) + "\"}"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e ->
                assertThat(e.getMessage())
                    .startsWith("pageSize: ")
                    .contains("a number of at most 1000 characters"));
  }

  @Test
  void reads_the_reference_read_request() {
    ReadEventRecordsRequest request =
        read(
            """
        {
          "namespace": "my_dataset",
          "timeSeriesId": "profile100",
          "timeInterval": {"start": "2024-10-02T21:00:00.000Z", "end": "2024-10-03T21:00:00.000Z"},
          "eventFilters": [{"matchEventItemKey": "ZGV2aWNlVHlwZQ==", "matchEventItemValue": "aW9z"}],
          "pageSize": 100,
          "totalRecordLimit": 1000
        }
        """);

    assertThat(request.getTimeSeriesId()).isEqualTo("profile100");
    assertThat(Timestamps.toString(request.getTimeInterval().getEnd()))
        .isEqualTo("2024-10-03T21:00:00Z");
    assertThat(request.getEventFilters(0).getMatchEventItemKey().toStringUtf8())
        .isEqualTo("deviceType");
    assertThat(request.getPageSize()).isEqualTo(100);
    assertThat(request.getTotalRecordLimit()).isEqualTo(1000);
  }

  @Test
  void prints_fields_without_presence_at_their_default_so_an_error_at_index_0_has_its_index() {
    ProtoJson json = new ProtoJson();

    assertThat(json.print(WriteEventRecordsResponse.getDefaultInstance()))
        .isEqualTo("{\"writtenCount\":0,\"writtenIndexes\":[],\"errors\":[]}");
    assertThat(json.print(ReadEventRecordsResponse.getDefaultInstance()))
        .isEqualTo("{\"events\":[],\"nextPageToken\":\"\",\"partial\":false}");
    assertThat(
            json.print(
                WriteEventRecordsResponse.newBuilder()
                    .setWrittenCount(1)
                    .addWrittenIndexes(1)
                    .addErrors(
                        EventError.newBuilder()
                            .setIndex(0)
                            .setEventId("e")
                            .setCode("FAILED_PRECONDITION"))
                    .build()))
        .isEqualTo(
            "{\"writtenCount\":1,\"writtenIndexes\":[1],\"errors\":[{\"index\":0,\"timeSeriesId\":\"\","
                + "\"eventId\":\"e\",\"code\":\"FAILED_PRECONDITION\",\"message\":\"\"}]}");
  }

  @Test
  void prints_fields_with_presence_only_when_set() {
    ProtoJson json = new ProtoJson();

    // count is optional and distinct a message: absent means "not asked"
    assertThat(json.print(AggregateEventRecordsResponse.getDefaultInstance()))
        .isEqualTo("{\"countByTime\":[]}");
    assertThat(json.print(AggregateEventRecordsResponse.newBuilder().setCount(0).build()))
        .isEqualTo("{\"count\":\"0\",\"countByTime\":[]}");
    assertThat(json.print(TimePartition.newBuilder().setEventBuckets(0).build()))
        .isEqualTo("{\"eventBuckets\":0}");
  }

  static Stream<Arguments> responses() {
    return Transports.SERVICES.stream()
        .flatMap(service -> service.getMethods().stream())
        .map(
            method ->
                Arguments.of(
                    method.getFullMethodName(),
                    ((MethodDescriptor.PrototypeMarshaller<?>) method.getResponseMarshaller())
                        .getMessagePrototype()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("responses")
  void every_response_prints_its_fields_without_presence_when_empty(String rpc, Message empty)
      throws Exception {
    JsonNode printed = new ObjectMapper().readTree(new ProtoJson().print(empty));

    List<String> expected =
        empty.getDescriptorForType().getFields().stream()
            .filter(f -> !f.hasPresence())
            .map(FieldDescriptor::getJsonName)
            .toList();
    assertThat(printed.fieldNames()).toIterable().containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void prints_64_bit_integers_as_strings_and_durations_in_seconds() {
    Namespace namespace =
        Namespace.newBuilder()
            .setVersion(3)
            .addPersistenceConfiguration(
                PersistenceConfiguration.newBuilder()
                    .setId("PRIMARY_STORAGE")
                    .setConfig(
                        StorageConfig.newBuilder()
                            .setTimePartition(
                                TimePartition.newBuilder()
                                    .setSecondsPerTimeSlice(129_600)
                                    .setEventBuckets(4))
                            .setAcceptLimit(Durations.fromSeconds(129_600))))
            .build();

    String printed = new ProtoJson().print(namespace);

    assertThat(printed)
        .contains(
            "\"timeSlices\":[]",
            "\"version\":\"3\"",
            "\"secondsPerTimeSlice\":\"129600\"",
            "\"eventBuckets\":4",
            "\"acceptLimit\":\"129600s\"");
    assertThat(ProtoJson.parse(printed, Namespace.getDefaultInstance())).isEqualTo(namespace);
  }

  @Test
  void a_string_with_an_unpaired_surrogate_is_refused_naming_the_field_and_a_pair_is_taken() {
    String lone = "{\"namespace\": \"ns\", \"timeSeriesId\": \"a\\udfff\\ud800\"}";
    assertThatThrownBy(
            () ->
                ProtoJson.parse(
                    lone, io.varve.api.timeseries.v1.ReadEventRecordsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              org.assertj.core.api.Assertions.assertThat(e.field()).isEqualTo("timeSeriesId");
              org.assertj.core.api.Assertions.assertThat(e.getMessage())
                  .contains("unpaired surrogate \\uDFFF");
            });
    // its position counted in characters: the emoji before it is one
    assertThatThrownBy(
            () ->
                ProtoJson.parse(
                    "{\"timeSeriesId\": \"\\ud83d\\ude00\\udfff\"}",
                    io.varve.api.timeseries.v1.ReadEventRecordsRequest.getDefaultInstance()))
        .hasMessageContaining("unpaired surrogate \\uDFFF at character 1 ");
    String pair = "{\"namespace\": \"ns\", \"timeSeriesId\": \"a\\ud83d\\ude00\"}";
    org.assertj.core.api.Assertions.assertThat(
            ProtoJson.parse(
                    pair, io.varve.api.timeseries.v1.ReadEventRecordsRequest.getDefaultInstance())
                .getTimeSeriesId())
        .isEqualTo("a\ud83d\ude00");
  }
}
