package io.varve.server;

import static io.varve.server.Events.b64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.local.server.MetricSample;
import io.varve.local.server.ServerMetrics;
import io.varve.server.config.ServerSettings;
import io.varve.server.transport.Transports;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gRPC, bearer-token authentication, request size limits, health and metrics on a real server. */
class TransportIT {

  static final String TOKEN = "s3cret-token";

  static TestServer server;
  static TimeSeriesGrpc.TimeSeriesBlockingStub grpc;

  @BeforeAll
  static void start() throws Exception {
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(
        config,
        """
        server:
          auth:
            bearerTokens: ["%s"]
        timeseries:
          limits:
            maxRequestBytes: 65536
        """
            .formatted(TOKEN));
    server = new TestServer(ServerSettings.load(config), "varve_transport_it", "transport_it");
    String base = server.base();
    GrpcClients.builder(base)
        .auth(com.linecorp.armeria.common.auth.AuthToken.ofOAuth2(TOKEN))
        .build(ControlPlaneGrpc.ControlPlaneBlockingStub.class)
        .createNamespace(
            CreateNamespaceRequest.newBuilder()
                .setNamespace("transport_it")
                .addPersistenceConfiguration(
                    PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE"))
                .build());
    grpc =
        GrpcClients.builder(base)
            .auth(com.linecorp.armeria.common.auth.AuthToken.ofOAuth2(TOKEN))
            .build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> http(String path, String body, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.base() + path))
            .header("Content-Type", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return TestHttp.client()
        .send(
            body == null
                ? request.GET().build()
                : request.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  static Timestamp ts(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }

  @Test
  void grpc_writes_and_reads_events() {
    Instant t = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.MILLIS);
    WriteEventRecordsResponse written =
        grpc.writeEventRecordsSync(
            WriteEventRecordsRequest.newBuilder()
                .setNamespace("transport_it")
                .addEvents(
                    Event.newBuilder()
                        .setTimeSeriesId("g")
                        .setEventTime(ts(t))
                        .setEventId("one")
                        .addEventItems(
                            EventItem.newBuilder()
                                .setEventItemKey(ByteString.copyFromUtf8("k"))
                                .setEventItemValue(ByteString.copyFromUtf8("v"))))
                .build());
    assertThat(written.getWrittenCount()).isEqualTo(1);
    ReadEventRecordsResponse read =
        grpc.readEventRecords(
            ReadEventRecordsRequest.newBuilder()
                .setNamespace("transport_it")
                .setTimeSeriesId("g")
                .setTimeInterval(
                    TimeInterval.newBuilder().setStart(ts(t)).setEnd(ts(t.plusSeconds(1))))
                .build());
    assertThat(read.getEventsList()).extracting(Event::getEventId).containsExactly("one");
    assertThat(read.getEvents(0).getEventTime()).isEqualTo(ts(t));
  }

  @Test
  void a_grpc_time_finer_than_the_millisecond_is_truncated_the_same_way_on_every_retry() {
    // what Instant.now() gives on Linux: microseconds
    Instant micros =
        Instant.now().minusSeconds(40).truncatedTo(ChronoUnit.MILLIS).plusNanos(123_456);
    WriteEventRecordsRequest write =
        WriteEventRecordsRequest.newBuilder()
            .setNamespace("transport_it")
            .addEvents(
                Event.newBuilder()
                    .setTimeSeriesId("micros")
                    .setEventTime(ts(micros))
                    .setEventId("retried")
                    .addEventItems(
                        EventItem.newBuilder()
                            .setEventItemKey(ByteString.copyFromUtf8("k"))
                            .setEventItemValue(ByteString.copyFromUtf8("v"))))
            .build();
    assertThat(grpc.writeEventRecordsSync(write).getWrittenCount()).isEqualTo(1);
    assertThat(grpc.writeEventRecordsSync(write).getWrittenCount()).isEqualTo(1);
    ReadEventRecordsResponse read =
        grpc.readEventRecords(
            ReadEventRecordsRequest.newBuilder()
                .setNamespace("transport_it")
                .setTimeSeriesId("micros")
                // an interval of one microsecond around the written time still finds it
                .setTimeInterval(
                    TimeInterval.newBuilder()
                        .setStart(ts(micros))
                        .setEnd(ts(micros.plusNanos(1_000))))
                .build());
    assertThat(read.getEventsList()).extracting(Event::getEventId).containsExactly("retried");
    assertThat(read.getEvents(0).getEventTime())
        .isEqualTo(ts(micros.truncatedTo(ChronoUnit.MILLIS)));
  }

  @Test
  void grpc_malformed_request_is_invalid_argument_naming_the_field() {
    assertThatThrownBy(
            () ->
                grpc.readEventRecords(
                    ReadEventRecordsRequest.newBuilder()
                        .setNamespace("transport_it")
                        .setTimeSeriesId("g")
                        .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).startsWith("timeInterval: missing");
            });
    assertThatThrownBy(
            () ->
                grpc.readEventRecords(
                    ReadEventRecordsRequest.newBuilder()
                        .setNamespace("nope")
                        .setTimeSeriesId("g")
                        .setTimeInterval(
                            TimeInterval.newBuilder()
                                .setStart(ts(Instant.EPOCH))
                                .setEnd(ts(Instant.EPOCH.plusSeconds(1))))
                        .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  void calls_without_a_valid_token_are_refused() throws Exception {
    HttpResponse<String> missing = http("/v1/ListNamespaces", "{}", null);
    assertThat(missing.statusCode()).isEqualTo(401);
    assertThat(TestServer.JSON.readTree(missing.body()).path("error").path("code").asText())
        .isEqualTo("UNAUTHENTICATED");
    assertThat(http("/v1/ListNamespaces", "{}", "wrong").statusCode()).isEqualTo(401);
    assertThat(http("/v1/ListNamespaces", "{}", TOKEN).statusCode()).isEqualTo(200);
    TimeSeriesGrpc.TimeSeriesBlockingStub anonymous =
        GrpcClients.builder(server.base()).build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
    assertThatThrownBy(
            () -> anonymous.readEventRecords(ReadEventRecordsRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
  }

  @Test
  void requests_over_the_size_limit_are_refused_whole() throws Exception {
    String big =
        "{\"namespace\": \"transport_it\", \"events\": [{\"timeSeriesId\": \"big\", \"eventTime\": \""
            + Instant.now().truncatedTo(ChronoUnit.MILLIS)
            + "\", \"eventId\": \"b\", \"eventItems\": [{\"eventItemKey\": \""
            + b64("k")
            + "\", \"eventItemValue\": \""
            + b64(new byte[70_000])
            + "\"}]}]}";
    HttpResponse<String> tooLarge = http("/v1/WriteEventRecordsSync", big, TOKEN);
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(TestServer.JSON.readTree(tooLarge.body()).path("error").path("code").asText())
        .isEqualTo("RESOURCE_EXHAUSTED");
    assertThatThrownBy(
            () ->
                grpc.writeEventRecordsSync(
                    WriteEventRecordsRequest.newBuilder()
                        .setNamespace("transport_it")
                        .addEvents(
                            Event.newBuilder()
                                .setTimeSeriesId("big")
                                .setEventTime(ts(Instant.now()))
                                .setEventId("b")
                                .addEventItems(
                                    EventItem.newBuilder()
                                        .setEventItemKey(ByteString.copyFromUtf8("k"))
                                        .setEventItemValue(ByteString.copyFrom(new byte[70_000]))))
                        .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
  }

  @Test
  void health_docs_and_per_rpc_metrics_are_served() throws Exception {
    http("/v1/ListNamespaces", "{}", TOKEN);
    assertThat(http("/health", null, null).statusCode()).isEqualTo(200);
    assertThat(http("/docs/", null, null).statusCode()).isEqualTo(200);
    String specification = http("/docs/specification.json", null, null).body();
    for (ServiceDescriptor service : Transports.SERVICES) {
      assertThat(specification)
          .as("the docs page describes " + service.getName())
          .contains("\"" + service.getName() + "\"");
      service
          .getMethods()
          .forEach(m -> assertThat(specification).contains("\"" + m.getBareMethodName() + "\""));
    }
    HttpResponse<String> metrics = http("/metrics", null, null);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(
            metrics
                .body()
                .lines()
                .filter(l -> l.startsWith("varve_api_requests_total"))
                .filter(
                    l ->
                        l.contains("method=\"ListNamespaces\"")
                            && l.contains("varve.timeseries.v1.http")))
        .isNotEmpty();
  }

  @Test
  void cassandra_request_latency_is_measured_by_operation() throws Exception {
    double readsBefore = cassandraRequests("read");
    double writesBefore = cassandraRequests("write");
    String t = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.MILLIS).toString();
    assertThat(
            http(
                    "/v1/WriteEventRecordsSync",
                    "{\"namespace\":\"transport_it\",\"events\":[{\"timeSeriesId\":"
                        + "\"m\",\"eventTime\":\""
                        + t
                        + "\",\"eventId\":\"e\",\"eventItems\":[{\"eventItemKey\":\"aw==\","
                        + "\"eventItemValue\":\"dg==\"}]}]}",
                    TOKEN)
                .statusCode())
        .isEqualTo(200);
    assertThat(
            http(
                    "/v1/ReadEventRecords",
                    "{\"namespace\":\"transport_it\",\"timeSeriesId\":\"m\",\"timeInterval\":"
                        + "{\"start\":\""
                        + t
                        + "\",\"end\":\""
                        + Instant.parse(t).plusSeconds(1)
                        + "\"}}",
                    TOKEN)
                .body())
        .contains("\"e\"");
    assertThat(cassandraRequests("write")).as("CQL writes counted").isGreaterThan(writesBefore);
    assertThat(cassandraRequests("read")).as("CQL reads counted").isGreaterThan(readsBefore);
    assertThat(http("/metrics", null, null).body())
        .contains(
            "varve_cassandra_requests_seconds_bucket{cluster=\"default\",operation=\"read\",outcome=\"success\",le=\"0.001\"}");
  }

  @Test
  void the_servers_process_is_measured_heap_collections_threads_and_cpu() throws Exception {
    ServerMetrics before = ServerMetrics.parse(http("/metrics", null, null).body());
    assertThat(heap(before, "jvm_memory_used_bytes")).isPositive();
    assertThat(heap(before, "jvm_memory_max_bytes")).isPositive();
    assertThat(before.sum("jvm_threads_live_threads")).isPositive();
    assertThat(before.sum("process_uptime_seconds")).isPositive();
    assertThat(before.samples())
        .extracting(MetricSample::name)
        .contains("process_cpu_usage", "process_files_open_files", "jvm_gc_overhead");
    // the server runs in this JVM: a collection here is one of the server's
    double pauses = before.sum("jvm_gc_pause_seconds_count");
    long deadline = System.nanoTime() + 10_000_000_000L;
    double after = pauses;
    while (after <= pauses && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(100); // the collector's notification arrives on its own thread
      after =
          ServerMetrics.parse(http("/metrics", null, null).body())
              .sum("jvm_gc_pause_seconds_count");
    }
    assertThat(after).as("collections counted in jvm_gc_pause_seconds").isGreaterThan(pauses);
  }

  /** The sum of the heap pools' series of {@code metric}. */
  private static double heap(ServerMetrics metrics, String metric) {
    return metrics.samples().stream()
        .filter(s -> s.name().equals(metric) && "heap".equals(s.labels().get("area")))
        .mapToDouble(MetricSample::value)
        .sum();
  }

  /** The count of successful CQL requests of an operation in the server's metrics. */
  private static double cassandraRequests(String operation) throws Exception {
    String prefix =
        "varve_cassandra_requests_seconds_count{cluster=\"default\",operation=\""
            + operation
            + "\",outcome=\"success\"}";
    return http("/metrics", null, null)
        .body()
        .lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length()).trim()))
        .findFirst()
        .orElse(0);
  }
}
