package io.varve.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.client.CallSettings;
import io.varve.client.Times;
import io.varve.client.VarveClient;
import io.varve.local.testing.TestCassandra;
import io.varve.server.VarveServer;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboards and alert rules of this module against a real Prometheus (Debian's package)
 * scraping a real server under a small load: the TimeSeries and KeyValue services over HTTP/JSON
 * and gRPC, requests refused at admission and by a full fire-and-forget queue, bad requests, and a
 * TimeSeries and a KeyValue namespace whose keyspaces are given more replicas than the one-node
 * cluster has, so that their calls fail {@code UNAVAILABLE} and the TimeSeries one's queued events
 * are retried, then dropped. Then: {@code promtool} accepts the rules and their unit tests,
 * Prometheus loaded every rule and evaluates it without error, every query of every dashboard panel
 * returns a series, every metric named in either is one the server exposes, and the alerts on what
 * the load broke select it.
 *
 * <p>Skipped when the binaries are missing ({@value Prometheus#BINARY_PROPERTY}, {@value
 * Prometheus#PROMTOOL_PROPERTY}, default {@code prometheus} and {@code promtool} on the PATH),
 * unless {@code VARVE_REQUIRE_PROMETHEUS=1} (CI installs Debian's {@code prometheus} and sets it).
 */
class MonitoringIT {

  static final String METADATA = "varve_monitoring_it";
  static final String PREFIX = "monitoring_it_";
  static final String RUN = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);

  /** A TimeSeries namespace that works. */
  static final String EVENTS = PREFIX + "ts_" + RUN;

  /**
   * A TimeSeries namespace whose keyspace is altered to three replicas on the one-node cluster: its
   * LOCAL_QUORUM writes fail UNAVAILABLE. Its queue is small and paced, so it fills.
   */
  static final String BROKEN = PREFIX + "tsu_" + RUN;

  /** A KeyValue namespace, altered as {@link #BROKEN} once its healthy load is done. */
  static final String ITEMS = PREFIX + "kv_" + RUN;

  /** Metrics that Prometheus makes itself, never in a target's page. */
  static final Set<String> SYNTHETIC = Set.of("up");

  /** How long the queries wait for the scrapes to catch up with the load. */
  static final Duration SETTLE = Duration.ofSeconds(30);

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * target/monitoring-it: Prometheus's configuration, data and log, and the server's last /metrics
   * page, kept for a failure's diagnosis.
   */
  static Path dir;

  static CqlSession cql;
  static VarveServer server;
  static Prometheus prometheus;
  static URI api;
  static final Map<String, Integer> statuses = new TreeMap<>();

  @BeforeAll
  static void start() throws Exception {
    boolean installed =
        Prometheus.runs(Prometheus.binary()) && Prometheus.runs(Prometheus.promtool());
    if (!installed && "1".equals(System.getenv("VARVE_REQUIRE_PROMETHEUS"))) {
      throw new AssertionError(
          "VARVE_REQUIRE_PROMETHEUS=1, but "
              + Prometheus.binary()
              + " or "
              + Prometheus.promtool()
              + " does not run (Debian: apt-get install prometheus)");
    }
    assumeTrue(
        installed,
        "prometheus and promtool are not installed (CI installs Debian's package and requires"
            + " this test)");
    dir = Monitoring.home().resolve("target/monitoring-it");
    deleteTree(dir);
    Files.createDirectories(dir);
    cql =
        CqlSession.builder()
            .addContactPoint(TestCassandra.contactPoint())
            .withLocalDatacenter(TestCassandra.localDatacenter())
            .build();
    for (Row row : cql.execute("SELECT keyspace_name FROM system_schema.keyspaces")) {
      String ks = row.getString("keyspace_name");
      if (ks.startsWith(PREFIX) || ks.equals(METADATA)) {
        cql.execute(
            SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + ks)
                .setTimeout(Duration.ofSeconds(60)));
      }
    }
    ServerSettings base = ServerSettings.defaults();
    CassandraSettings cassandra =
        base.cassandra()
            .withContactPoints(List.of(TestCassandra.contactPoint()))
            .withMetadataKeyspace(METADATA);
    server =
        VarveServer.start(
            base.toBuilder()
                .cassandra(cassandra)
                .port(0)
                .shutdown(ServerSettings.Shutdown.AT_ONCE)
                // the smallest write budget, so that one large request is refused at admission;
                // queued events retried for 2 s only, so that the broken namespace's are dropped
                .admission(
                    new AdmissionSettings(
                        AdmissionSettings.MIN_BYTES,
                        AdmissionSettings.autoReadBytes(),
                        AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY,
                        AdmissionSettings.autoBufferedWriteBytes(),
                        Duration.ofSeconds(2)))
                .build());
    api = URI.create("http://127.0.0.1:" + server.port() + "/");
    prometheus = Prometheus.start(dir, "127.0.0.1:" + server.port(), Monitoring.rules());
    load();
  }

  @AfterAll
  static void stop() {
    if (prometheus != null) {
      prometheus.close();
    }
    if (server != null) {
      try {
        Files.writeString(dir.resolve("metrics.txt"), metricsPage());
      } catch (IOException e) {
        System.out.println("MonitoringIT: /metrics at the end: " + e);
      }
      server.close();
    }
    if (cql != null) {
      cql.close();
    }
  }

  /** The load: each service and transport, refusals, bad requests and a failing namespace. */
  static void load() throws Exception {
    Instant now = Instant.now();
    post("CreateNamespace", timeSeriesNamespace(EVENTS, 4_194_304, 0));
    post("CreateNamespace", timeSeriesNamespace(BROKEN, 16_384, 1));
    post(
        "CreateNamespace",
        "{\"namespace\": \""
            + ITEMS
            + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\","
            + " \"physical_storage\": {\"type\": \"CASSANDRA\", \"cluster\": \"c\", \"dataset\": \""
            + ITEMS
            + "\", \"table\": \""
            + ITEMS
            + "\", \"config\": {\"consistency_scope\": \"LOCAL\","
            + " \"consistency_target\": \"READ_YOUR_WRITES\"}}}]}");
    for (int i = 0; i < 10; i++) {
      post("WriteEventRecordsSync", events(EVENTS, "series-" + i, now, 10, 16));
      post("WriteEventRecords", events(EVENTS, "queued-" + i, now, 5, 16));
      post("ReadEventRecords", read(EVENTS, "series-" + i));
      String id = "record-" + i;
      post("PutItems", putItems(id, 16));
      post("GetItems", "{\"namespace\": \"" + ITEMS + "\", \"id\": \"" + id + "\"}");
    }
    // bad requests (400) and a namespace that does not exist (404)
    post("ReadEventRecords", "{\"namespace\": \"" + EVENTS + "\"}");
    post("ReadEventRecords", read(PREFIX + "missing", "series-0"));
    post("GetItems", "{\"namespace\": \"" + ITEMS + "\"}");
    grpc(now);
    // The broken namespaces: three replicas wanted, one node; their writes and reads fail
    // UNAVAILABLE.
    for (String keyspace : List.of(BROKEN, ITEMS)) {
      cql.execute(
          SimpleStatement.newInstance(
                  "ALTER KEYSPACE "
                      + keyspace
                      + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}")
              .setTimeout(Duration.ofSeconds(60)));
    }
    // Failures over several scrapes: Prometheus sees a counter rise only between two of its
    // samples, not when it first appears. Each round: reads and writes of the broken namespaces
    // (503), a fire-and-forget write to the broken TimeSeries one (queued, then 429 once its small,
    // paced queue is full; the queued events are retried, then dropped), and large writes of both
    // services at once, over the whole write budget together (429 at admission for all but one).
    for (int round = 0; round < 12; round++) {
      post("ReadEventRecords", read(BROKEN, "series-" + round));
      post("WriteEventRecordsSync", events(BROKEN, "sync-" + round, now, 2, 16));
      post("WriteEventRecords", events(BROKEN, "queued-" + round, now, 4, 512));
      post("PutItems", putItems("broken-" + round, 16));
      post("GetItems", "{\"namespace\": \"" + ITEMS + "\", \"id\": \"record-0\"}");
      List<CompletableFuture<Integer>> writes = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        writes.add(postAsync("WriteEventRecordsSync", events(EVENTS, "large", now, 1, 400_000)));
        writes.add(postAsync("PutItems", putItems("large-" + i, 400_000)));
      }
      writes.forEach(CompletableFuture::join);
      Prometheus.pause(Duration.ofMillis(300));
    }
    // at least one collection, for the series of GC pauses
    System.gc();
    System.out.println("MonitoringIT: answers of the load, by RPC and status: " + statuses);
  }

  /** Calls over gRPC with the Java client: sent once each, failures kept. */
  static void grpc(Instant now) {
    CallSettings once = CallSettings.defaults().withoutHedging();
    try (VarveClient client =
        VarveClient.builder()
            .endpoints("127.0.0.1:" + server.port())
            .retries(0, Duration.ofMillis(10), Duration.ofMillis(10))
            .callSettings(once)
            .build()) {
      for (int n = 0; n < 5; n++) {
        String i = Integer.toString(n);
        grpcCall(
            "WriteEventRecordsSync",
            () ->
                VarveClient.join(
                    client
                        .timeSeries()
                        .writeEventRecordsSync(
                            WriteEventRecordsRequest.newBuilder()
                                .setNamespace(EVENTS)
                                .addEvents(
                                    Event.newBuilder()
                                        .setTimeSeriesId("grpc-" + i)
                                        .setEventTime(Times.timestamp(now))
                                        .setEventId(UUID.randomUUID().toString())
                                        .addEventItems(
                                            EventItem.newBuilder()
                                                .setEventItemKey(ByteString.copyFromUtf8("k"))
                                                .setEventItemValue(ByteString.copyFromUtf8("v"))))
                                .build())));
        grpcCall(
            "ReadEventRecords",
            () ->
                VarveClient.join(
                    client.timeSeries().readEventRecords(grpcRead(EVENTS, "grpc-" + i, now))));
        grpcCall(
            "PutItems",
            () ->
                VarveClient.join(
                    client
                        .keyValue()
                        .putItems(
                            PutItemsRequest.newBuilder()
                                .setNamespace(ITEMS)
                                .setId("grpc-" + i)
                                .addItems(
                                    Item.newBuilder()
                                        .setKey(ByteString.copyFromUtf8("k"))
                                        .setValue(ByteString.copyFromUtf8("v")))
                                .build())));
        grpcCall(
            "GetItems",
            () ->
                VarveClient.join(
                    client
                        .keyValue()
                        .getItems(
                            GetItemsRequest.newBuilder()
                                .setNamespace(ITEMS)
                                .setId("grpc-" + i)
                                .build())));
      }
      grpcCall(
          "ReadEventRecords",
          () ->
              VarveClient.join(
                  client.timeSeries().readEventRecords(grpcRead(PREFIX + "missing", "x", now))));
    }
  }

  static ReadEventRecordsRequest grpcRead(String namespace, String series, Instant now) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeSeriesId(series)
        .setTimeInterval(
            Times.interval(now.minus(Duration.ofHours(1)), now.plus(Duration.ofMinutes(1))))
        .build();
  }

  private static void grpcCall(String rpc, Runnable call) {
    String outcome;
    try {
      call.run();
      outcome = "OK";
    } catch (RuntimeException e) {
      outcome = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      int colon = outcome.indexOf(':');
      outcome = colon > 0 ? outcome.substring(0, colon) : outcome;
    }
    statuses.merge("grpc " + rpc + " " + outcome, 1, Integer::sum);
  }

  @Test
  void promtool_accepts_the_rules_and_their_unit_tests() throws Exception {
    Run check = run(Prometheus.promtool(), "check", "rules", Monitoring.rules().toString());
    assertThat(check.status()).as("promtool check rules:\n" + check.output()).isZero();
    Run tests = run(Prometheus.promtool(), "test", "rules", Monitoring.ruleTests().toString());
    assertThat(tests.status()).as("promtool test rules:\n" + tests.output()).isZero();
  }

  @Test
  void prometheus_loads_every_alert_and_evaluates_it_without_error() throws Exception {
    List<String> alerts = Monitoring.alertNames();
    assertThat(alerts).as("alerts of the rule file").hasSizeGreaterThanOrEqualTo(10);
    List<JsonNode> loaded = awaitEvaluated(alerts);
    assertThat(loaded.stream().map(r -> r.path("name").asText()))
        .as("alerts Prometheus loaded")
        .containsExactlyInAnyOrderElementsOf(alerts);
    List<String> problems = new ArrayList<>();
    for (JsonNode rule : loaded) {
      String name = rule.path("name").asText();
      if (!rule.path("health").asText().equals("ok")
          || !rule.path("lastError").asText().isEmpty()) {
        problems.add(name + ": health " + rule.path("health") + ", " + rule.path("lastError"));
      }
      JsonNode answer = prometheus.query(rule.path("query").asText());
      if (!answer.path("status").asText().equals("success")) {
        problems.add(name + ": " + answer);
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void every_dashboard_panel_query_returns_a_series() throws Exception {
    List<Monitoring.Target> targets = Monitoring.targets();
    assertThat(targets).as("panel queries").hasSizeGreaterThanOrEqualTo(40);
    Map<String, String> empty =
        settled(
            () -> {
              Map<String, String> problems = new LinkedHashMap<>();
              for (Monitoring.Target t : targets) {
                String expr = PromQl.substitute(t.expr());
                JsonNode answer = prometheus.query(expr);
                if (!answer.path("status").asText().equals("success")) {
                  problems.put(t.toString(), answer.toString());
                } else if (answer.path("data").path("result").isEmpty()) {
                  problems.put(t.toString(), "no series: " + expr);
                }
              }
              return problems;
            });
    assertThat(empty).as("panel queries that return no series").isEmpty();
  }

  @Test
  void every_metric_the_dashboards_and_rules_name_is_one_the_server_exposes() throws Exception {
    Set<String> exposed = exposedNames(metricsPage());
    assertThat(exposed).as("the server's /metrics").contains("varve_api_requests_total");
    Map<String, Set<String>> unknown = new TreeMap<>();
    int names = 0;
    for (Map.Entry<String, String> e : Monitoring.expressions().entrySet()) {
      for (String name : PromQl.metricNames(e.getValue())) {
        names++;
        if (!exposed.contains(name) && !SYNTHETIC.contains(name)) {
          unknown.computeIfAbsent(name, n -> new TreeSet<>()).add(e.getKey());
        }
      }
    }
    assertThat(names).as("metric names found in the queries").isGreaterThan(50);
    assertThat(unknown)
        .as("metrics not in the server's /metrics, and where they are used")
        .isEmpty();
  }

  @Test
  void the_alerts_on_what_the_load_broke_select_it_and_the_others_stay_quiet() throws Exception {
    Map<String, String> rules = Monitoring.alertExpressions();
    // selected: the broken namespace's drops, the refusals, the server errors and the failing
    // worker; not: the server down, the cluster unreachable
    Map<String, Boolean> expected = new LinkedHashMap<>();
    expected.put("VarveBufferDroppingEvents", true);
    expected.put("VarveBufferRefusingWrites", true);
    expected.put("VarveAdmissionRefusing", true);
    expected.put("VarveServerErrors", true);
    expected.put("VarveBackgroundWorkerFailing", true);
    expected.put("VarveServerDown", false);
    expected.put("VarveCassandraUnreachable", false);
    expected.put("VarveBackgroundWorkerStalled", false);
    expected.put("VarveBackgroundWorkerLagging", false);
    assertThat(rules)
        .as("alerts of the rule file")
        .containsKeys(expected.keySet().toArray(String[]::new));
    Map<String, String> wrong =
        settled(
            () -> {
              Map<String, String> problems = new LinkedHashMap<>();
              for (Map.Entry<String, Boolean> e : expected.entrySet()) {
                JsonNode result =
                    prometheus.query(rules.get(e.getKey())).path("data").path("result");
                if (result.isEmpty() == e.getValue()) {
                  problems.put(
                      e.getKey(), (e.getValue() ? "selects nothing: " : "selects: ") + result);
                }
              }
              return problems;
            });
    assertThat(wrong)
        .as("alert expressions against the load (answers: " + statuses + ")")
        .isEmpty();
  }

  /** Problems a check finds, as what they are by where they are. */
  interface Check {
    Map<String, String> problems() throws IOException;
  }

  /**
   * What {@code check} still finds once it finds nothing, or after {@link #SETTLE}: the last
   * scrapes and evaluations may lag the load by a few seconds.
   */
  private static Map<String, String> settled(Check check) throws IOException {
    Instant end = Instant.now().plus(SETTLE);
    Map<String, String> problems = check.problems();
    while (!problems.isEmpty() && Instant.now().isBefore(end)) {
      Prometheus.pause(Duration.ofSeconds(1));
      problems = check.problems();
    }
    return problems;
  }

  /** The rules, once each has been evaluated after the load (health ok or an error). */
  private static List<JsonNode> awaitEvaluated(List<String> alerts) throws IOException {
    Instant end = Instant.now().plus(SETTLE);
    List<JsonNode> rules;
    do {
      rules = prometheus.rules();
      boolean all =
          rules.size() >= alerts.size()
              && rules.stream().noneMatch(r -> r.path("health").asText().equals("unknown"));
      if (all) {
        return rules;
      }
      Prometheus.pause(Duration.ofMillis(500));
    } while (Instant.now().isBefore(end));
    return rules;
  }

  /** The sample names of a Prometheus text page. */
  static Set<String> exposedNames(String page) {
    Set<String> names = new TreeSet<>();
    for (String line : page.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int end = 0;
      while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
        end++;
      }
      names.add(line.substring(0, end));
    }
    return names;
  }

  static String metricsPage() throws IOException {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(api.resolve("metrics"))
                  .timeout(Duration.ofSeconds(10))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  static CompletableFuture<Integer> postAsync(String rpc, String json) {
    return HTTP.sendAsync(
            HttpRequest.newBuilder(api.resolve("v1/" + rpc))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .thenApply(
            response -> {
              synchronized (statuses) {
                statuses.merge("json " + rpc + " " + response.statusCode(), 1, Integer::sum);
              }
              return response.statusCode();
            });
  }

  static int post(String rpc, String json) {
    int status = postAsync(rpc, json).join();
    if (rpc.equals("CreateNamespace") && status != 200) {
      throw new IllegalStateException("CreateNamespace answered " + status + ": " + json);
    }
    return status;
  }

  static String timeSeriesNamespace(String name, int bufferCapacity, int drainRate) {
    return "{\"namespace\": \""
        + name
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"config\": {"
        + "\"timePartition\": {\"secondsPerTimeSlice\": \"86400\", \"secondsPerTimeBucket\":"
        + " \"3600\", \"eventBuckets\": 4}, \"acceptLimit\": \"129600s\", \"queueBuffering\":"
        + " {\"coalesce\": \"1s\", \"bufferCapacity\": "
        + bufferCapacity
        + (drainRate > 0 ? ", \"drainRate\": " + drainRate : "")
        + "}}}]}";
  }

  static String events(String namespace, String series, Instant time, int count, int valueBytes) {
    String value = Base64.getEncoder().encodeToString(new byte[valueBytes]);
    StringBuilder json = new StringBuilder("{\"namespace\": \"" + namespace + "\", \"events\": [");
    for (int i = 0; i < count; i++) {
      json.append(i == 0 ? "" : ", ")
          .append("{\"timeSeriesId\": \"")
          .append(series)
          .append("\", \"eventTime\": \"")
          .append(time.minusMillis(i))
          .append("\", \"eventId\": \"")
          .append(UUID.randomUUID())
          .append("\", \"eventItems\": [{\"eventItemKey\": \"a2V5\", \"eventItemValue\": \"")
          .append(value)
          .append("\"}]}");
    }
    return json.append("]}").toString();
  }

  static String read(String namespace, String series) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"timeSeriesId\": \""
        + series
        + "\", \"timeInterval\": {\"start\": \"2020-01-01T00:00:00Z\", \"end\":"
        + " \"2100-01-01T00:00:00Z\"}, \"pageSize\": 100}";
  }

  static String putItems(String id, int valueBytes) {
    return "{\"namespace\": \""
        + ITEMS
        + "\", \"id\": \""
        + id
        + "\", \"idempotency_token\": {\"generation_time\": \""
        + Instant.now()
        + "\", \"token\": \""
        + UUID.randomUUID()
        + "\"}, \"items\": [{\"key\": \"bmFtZQ==\", \"value\": \""
        + Base64.getEncoder().encodeToString(new byte[valueBytes])
        + "\"}]}";
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  record Run(int status, String output) {}

  static Run run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
    return new Run(p.exitValue(), output);
  }
}
