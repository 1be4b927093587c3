package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.core.namespace.TimeSeriesSlos;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TimeSeries latency objectives: the namespace's {@code slos} round trip and validation, the
 * handshake of a TimeSeries namespace, and SLO-bounded ReadEventRecords pages against the real
 * local Cassandra made slow by a delaying proxy between the server and it.
 */
class TimeSeriesSloIT {

  static final String KEYSPACE = "ts_slo_it";
  static final int EVENTS = 240;
  static final Instant START = Instant.now().truncatedTo(ChronoUnit.HOURS).minusSeconds(3 * 3600);

  static SloFixture slo;
  static TestServer server;
  static TimeSeriesGrpc.TimeSeriesBlockingStub grpc;

  @BeforeAll
  static void start() throws Exception {
    slo = SloFixture.start("varve_ts_slo_it", KEYSPACE, "ts_slo_it_kv");
    server = slo.server();
    grpc = server.timeSeries();
    create(
        "ts_slo_read",
        "\"slos\": {\"ReadEventRecords\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"0.3s\"}},"
            + " \"write\": {\"latency\": {\"target\": \"0.02s\", \"max\": \"0.5s\"}}}");
    create(
        "ts_slo_patient",
        "\"slos\": {\"read\": {\"latency\": {\"target\": \"1s\", \"max\": \"60s\"}}}");
    for (String namespace : new String[] {"ts_slo_read", "ts_slo_patient"}) {
      load(namespace);
    }
  }

  @AfterEach
  void quick() {
    slo.delay(Duration.ZERO);
  }

  @AfterAll
  static void stop() throws Exception {
    slo.close();
  }

  /** A namespace of one-minute buckets of two partitions each, with {@code config} added. */
  static void create(String namespace, String config) {
    slo.create(namespace(namespace, config));
  }

  static String namespace(String namespace, String config) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"physicalStorage\":"
        + " {\"dataset\": \""
        + KEYSPACE
        + "\"}, \"config\": {\"timePartition\": {\"secondsPerTimeSlice\": 86400,"
        + " \"secondsPerTimeBucket\": 60, \"eventBuckets\": 2}"
        + (config.isEmpty() ? "" : ", " + config)
        + "}}]}";
  }

  /** Two events a minute for two hours, in series s1: e0000 the oldest. */
  static void load(String namespace) {
    for (int from = 0; from < EVENTS; from += 120) {
      List<ObjectNode> events = new ArrayList<>();
      for (int i = from; i < from + 120; i++) {
        events.add(Events.event("s1", time(i), id(i), "k", "v" + i));
      }
      TestServer.Reply written =
          server.post("WriteEventRecordsSync", Events.write(namespace, events));
      assertThat(written.body().path("writtenCount").asInt())
          .as(written.body().toString())
          .isEqualTo(120);
    }
  }

  static Instant time(int i) {
    return START.plusSeconds(30L * i + 7);
  }

  static String id(int i) {
    return String.format("e%04d", i);
  }

  static ReadEventRecordsRequest read(String namespace, String token) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeSeriesId("s1")
        .setTimeInterval(
            TimeInterval.newBuilder()
                .setStart(timestamp(START))
                .setEnd(timestamp(START.plusSeconds(4 * 3600))))
        .setPageSize(1000)
        .setPageToken(token)
        .build();
  }

  static com.google.protobuf.Timestamp timestamp(Instant t) {
    return com.google.protobuf.Timestamp.newBuilder().setSeconds(t.getEpochSecond()).build();
  }

  static JsonNode slos(String namespace) {
    return slo.slos(namespace, "config");
  }

  @Test
  void get_namespace_shows_every_endpoint_with_the_given_group_and_default_objectives() {
    JsonNode slos = slos("ts_slo_read");

    assertThat(slos.path("ReadEventRecords").path("latency").path("max").asText())
        .isEqualTo("0.300s");
    assertThat(slos.path("SearchEventRecords").path("latency").path("max").asText())
        .isEqualTo("2s");
    assertThat(slos.path("AggregateEventRecords").path("latency").path("max").asText())
        .isEqualTo("60s");
    for (String write : new String[] {"WriteEventRecordsSync", "WriteEventRecords"}) {
      assertThat(slos.path(write).path("latency").path("target").asText()).isEqualTo("0.020s");
      assertThat(slos.path(write).path("latency").path("max").asText()).isEqualTo("0.500s");
    }
  }

  static Stream<Arguments> malformed() {
    String slos = "persistence_configuration[0].config.slos.";
    return Stream.of(
        Arguments.of(
            "{\"GetItems\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"1s\"}}}",
            slos + "GetItems"),
        Arguments.of("{\"read\": {}}", slos + "read.latency"),
        Arguments.of(
            "{\"ReadEventRecords\": {\"latency\": {\"max\": \"1s\"}}}",
            slos + "ReadEventRecords.latency.target"),
        Arguments.of(
            "{\"SearchEventRecords\": {\"latency\": {\"target\": \"1s\"}}}",
            slos + "SearchEventRecords.latency.max"),
        Arguments.of(
            "{\"ReadEventRecords\": {\"latency\": {\"target\": \"2s\", \"max\": \"1s\"}}}",
            slos + "ReadEventRecords.latency.target"),
        Arguments.of(
            "{\"WriteEventRecords\": {\"latency\": {\"target\": \"0s\", \"max\": \"1s\"}}}",
            slos + "WriteEventRecords.latency.target"),
        Arguments.of(
            "{\"write\": {\"latency\": {\"target\": \"1s\", \"max\": \"61s\"}}}",
            slos + "write.latency.max"),
        Arguments.of(
            "{\"AggregateEventRecords\": {\"latency\": {\"target\": \"0.0001s\", \"max\": \"0.0005s\"}}}",
            slos + "AggregateEventRecords.latency.max"),
        Arguments.of(
            "{\"ReadEventRecords\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"1s\"}},"
                + " \"readeventrecords\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"1s\"}}}",
            slos + "readeventrecords"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("malformed")
  void malformed_objectives_are_refused_naming_the_field_and_nothing_is_created(
      String slos, String field) {
    slo.assertRefused("ts_slo_bad", namespace("ts_slo_bad", "\"slos\": " + slos), field);
  }

  @Test
  void objectives_in_the_index_entry_are_refused_naming_the_field() {
    TestServer.Reply reply =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \"ts_slo_bad\", \"persistence_configuration\": [{\"id\":"
                + " \"PRIMARY_STORAGE\", \"physicalStorage\": {\"dataset\": \""
                + KEYSPACE
                + "\"}}, {\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\","
                + " \"dataset\": \"ts-slo\"}, \"config\": {\"slos\": {\"read\": {\"latency\":"
                + " {\"target\": \"0.5s\", \"max\": \"1s\"}}}}}]}");

    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(400);
    assertThat(reply.errorField()).isEqualTo("persistence_configuration[1].config.slos");
  }

  @Test
  void the_handshake_of_a_time_series_namespace_returns_its_objectives_and_limits_over_both_rpcs() {
    TestServer.Reply json =
        server.post(
            "Handshake",
            "{\"namespace\": \"ts_slo_read\", \"client\": {\"name\": \"varve-java\","
                + " \"capabilities\": [\"partial_returns\"]}}");
    assertThat(json.status()).as(json.body().toString()).isEqualTo(200);
    JsonNode body = json.body();
    assertThat(body.path("service").asText()).isEqualTo("TIME_SERIES");
    assertThat(body.path("slos").path("ReadEventRecords").path("latency").path("max").asText())
        .isEqualTo("0.300s");
    assertThat(body.path("capabilities").path("partialReturns").asBoolean()).isTrue();
    assertThat(body.path("timeSeriesLimits").path("maxPageSize").asInt()).isEqualTo(1000);
    assertThat(body.path("timeSeriesLimits").path("acceptLimit").asText()).isEqualTo("129600s");
    assertThat(body.has("keyValueLimits")).isFalse();

    HandshakeResponse viaTimeSeries =
        grpc.handshake(HandshakeRequest.newBuilder().setNamespace("ts_slo_read").build());
    assertThat(viaTimeSeries.getSlosMap())
        .containsOnlyKeys(TimeSeriesSlos.CATALOG.endpoints().keySet());
    assertThat(viaTimeSeries.getTimeSeriesLimits().getMaxEventsPerRequest()).isEqualTo(1000);
    HandshakeResponse viaKeyValue =
        server
            .keyValue()
            .handshake(HandshakeRequest.newBuilder().setNamespace("ts_slo_read").build());
    assertThat(viaKeyValue).isEqualTo(viaTimeSeries);
  }

  @Test
  void the_time_series_handshake_answers_a_key_value_namespace_too() {
    server.createKeyValueNamespace("ts_slo_kv", "ts_slo_it_kv", "items", "ASC");

    HandshakeResponse answer =
        grpc.handshake(HandshakeRequest.newBuilder().setNamespace("ts_slo_kv").build());

    assertThat(answer.getService()).isEqualTo("KEY_VALUE");
    assertThat(answer.getSlosMap()).containsKey("GetItems");
    assertThat(answer.getKeyValueLimits().getMaxItemsPerRequest()).isEqualTo(1000);
  }

  /** Every page of a read of ts_slo_read, with the wall time of each call. */
  record Pages(List<String> ids, List<Long> millis, int partial) {}

  static Pages readAll(String namespace) {
    List<String> ids = new ArrayList<>();
    List<Long> millis = new ArrayList<>();
    int partial = 0;
    String token = "";
    do {
      long start = System.nanoTime();
      ReadEventRecordsResponse page =
          grpc.withDeadlineAfter(10, TimeUnit.SECONDS).readEventRecords(read(namespace, token));
      millis.add((System.nanoTime() - start) / 1_000_000);
      page.getEventsList().forEach(e -> ids.add(e.getEventId()));
      if (page.getPartial()) {
        partial++;
        assertThat(page.getNextPageToken()).isNotEmpty();
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return new Pages(ids, millis, partial);
  }

  static List<String> newestFirst() {
    List<String> expected = new ArrayList<>();
    for (int i = EVENTS - 1; i >= 0; i--) {
      expected.add(id(i));
    }
    return expected;
  }

  @Test
  void a_slow_read_under_a_300_ms_max_comes_in_partial_pages_that_cover_every_event_once()
      throws Exception {
    double partialBefore = server.metric("varve_timeseries_read_pages_partial_total");
    // every answer of Cassandra 40 ms late: the 480 partitions take over a second at any fan-out
    slo.delay(Duration.ofMillis(40));

    Pages pages = readAll("ts_slo_read");

    List<Long> sorted = pages.millis().stream().sorted().toList();
    System.out.printf(
        "%d events, store 40 ms slow, 300 ms max: %d pages, %d partial, call ms p50 %d max %d%n",
        pages.ids().size(),
        pages.millis().size(),
        pages.partial(),
        sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() - 1));
    assertThat(pages.ids()).containsExactlyElementsOf(newestFirst());
    assertThat(pages.partial()).isGreaterThan(1);
    assertThat(server.metric("varve_timeseries_read_pages_partial_total") - partialBefore)
        .isGreaterThanOrEqualTo(pages.partial());
    // each call within the max plus a margin for a loaded two-core test machine (the page stops
    // at the max less a tenth; the last fetch it waits for is 40 ms late)
    assertThat(sorted.get(sorted.size() - 1)).isLessThan(300 + 400);
    assertThat(sorted.get(sorted.size() / 2)).isLessThan(300 + 150);
  }

  @Test
  void update_namespace_changes_the_max_and_the_next_read_honours_it() {
    create(
        "ts_slo_update",
        "\"slos\": {\"read\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"0.2s\"}}}");
    load("ts_slo_update");
    slo.delay(Duration.ofMillis(40));
    assertThat(readAll("ts_slo_update").partial()).isGreaterThan(1);

    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            namespace(
                "ts_slo_update",
                "\"slos\": {\"readEventRecords\": {\"latency\": {\"target\": \"1s\", \"max\": \"30s\"}}}"));
    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
    assertThat(slos("ts_slo_update").path("ReadEventRecords").path("latency").path("max").asText())
        .isEqualTo("30s");

    Pages after = readAll("ts_slo_update");
    assertThat(after.partial()).isZero();
    assertThat(after.millis()).hasSize(1);
    assertThat(after.ids()).containsExactlyElementsOf(newestFirst());
  }

  @Test
  void past_the_callers_deadline_the_server_itself_answers_deadline_exceeded() {
    // the caller sends a deadline but sets no timer of its own: what comes back is the server's
    slo.delay(Duration.ofMillis(600));
    TimeSeriesGrpc.TimeSeriesBlockingStub untimed = untimed("250m");

    // the server's two clocks for the deadline (the read's budget, the gRPC layer's request
    // timeout) end within a millisecond of each other: whichever stops the call, the answer is the
    // same; several calls give both a chance
    for (int call = 0; call < 8; call++) {
      long started = System.nanoTime();
      assertDeadlineExceeded(
          () -> untimed.readEventRecords(read("ts_slo_patient", "")), "call " + call);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void a_durable_write_past_the_callers_deadline_is_answered_deadline_exceeded() {
    // no budget of Varve's stops a write: the gRPC layer's own timer for grpc-timeout does
    slo.delay(Duration.ofMillis(600));
    WriteEventRecordsRequest write =
        WriteEventRecordsRequest.newBuilder()
            .setNamespace("ts_slo_patient")
            .addEvents(
                Event.newBuilder()
                    .setTimeSeriesId("late")
                    .setEventTime(timestamp(time(0)))
                    .setEventId("late-write")
                    .addEventItems(
                        EventItem.newBuilder()
                            .setEventItemKey(ByteString.copyFromUtf8("k"))
                            .setEventItemValue(ByteString.copyFromUtf8("v"))))
            .build();

    assertDeadlineExceeded(() -> untimed("250m").writeEventRecordsSync(write), "write");
  }

  /** {@code call} fails with the gRPC status DEADLINE_EXCEEDED. */
  static void assertDeadlineExceeded(ThrowingCallable call, String what) {
    assertThatThrownBy(call)
        .as(what)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e ->
                assertThat(e.getStatus().getCode())
                    .as(e.getStatus().toString())
                    .isEqualTo(Status.Code.DEADLINE_EXCEEDED));
  }

  /** A stub that sends {@code grpc-timeout: timeout} and sets no timer of its own. */
  static TimeSeriesGrpc.TimeSeriesBlockingStub untimed(String timeout) {
    return com.linecorp.armeria.client.grpc.GrpcClients.builder(server.base())
        .responseTimeout(Duration.ZERO)
        .addHeader("grpc-timeout", timeout)
        .build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
  }

  @Test
  void a_call_past_its_grpc_deadline_leaves_no_work_running_and_counts_the_cancelled_fetch()
      throws Exception {
    // no page can be cut before the deadline: the first partition answers after it
    slo.delay(Duration.ofMillis(600));
    double cancelledBefore = server.metric("varve_timeseries_read_fetches_cancelled_total");

    assertDeadlineExceeded(
        () ->
            grpc.withDeadlineAfter(250, TimeUnit.MILLISECONDS)
                .readEventRecords(read("ts_slo_patient", "")),
        "read");

    slo.assertCancelledAndNothingRunning(
        "varve_timeseries_read_fetches_cancelled_total",
        cancelledBefore,
        "varve_timeseries_read_running");
  }
}
