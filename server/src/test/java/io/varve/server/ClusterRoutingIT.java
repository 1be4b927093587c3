package io.varve.server;

import static io.varve.server.Events.event;
import static io.varve.server.Events.ids;
import static io.varve.server.Events.read;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.testing.TestCassandra;
import io.varve.local.testing.TestSecureCassandra;
import io.varve.server.config.ServerSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Namespaces on two Cassandra clusters: the test Cassandra as the default one, and the secure test
 * node (TLS and a password: {@link TestSecureCassandra}) as cluster {@code vault}, with a third,
 * {@code nowhere}, that no node answers. The server starts before {@code vault} does and connects
 * to it once it is up; at the end {@code vault} is killed while the default cluster's namespaces
 * keep serving.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterRoutingIT {

  static final String METADATA = "varve_cluster_routing_it";
  static final String HOME_KEYSPACE = "cluster_routing_home";
  static final String VAULT_KEYSPACE = "cluster_routing_vault";
  static final String VAULT_EVENTS = "vault_events";
  static final String VAULT_ITEMS = "vault_items";
  static final String HOME_EVENTS = "home_events";

  @TempDir static Path config;
  static TestServer server;
  static ServerSettings settings;
  static CompletableFuture<LocalCassandra> vault;
  static final Instant TIME = Instant.now().truncatedTo(ChronoUnit.MILLIS);

  @BeforeAll
  static void start() throws Exception {
    LocalCassandraSecurity security =
        new LocalCassandraSecurity(VarveHome.locate().resolve(".varve/test-secure")).ensure();
    int nowhere;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      nowhere = socket.getLocalPort();
    }
    InetSocketAddress home = TestCassandra.contactPoint();
    Path file = config.resolve("varve.yaml");
    Files.writeString(
        file,
        String.join(
            "\n",
            "cassandra:",
            "  contactPoints: [\"" + home.getHostString() + ":" + home.getPort() + "\"]",
            "  localDatacenter: datacenter1",
            "  clusters:",
            "    - name: vault",
            "      contactPoints: [\"127.0.0.1:24042\"]",
            "      localDatacenter: datacenter1",
            "      username: " + LocalCassandraSecurity.ROLE,
            "      password: " + security.rolePassword(),
            "      tls:",
            "        truststore: " + security.truststore(),
            "        truststorePassword: " + security.storePassword(),
            "    - name: nowhere",
            "      contactPoints: [\"127.0.0.1:" + nowhere + "\"]",
            "      localDatacenter: datacenter1",
            // the registry's refresh, which the last tests wait for
            "timeseries:",
            "  sliceMaintenanceInterval: 5s",
            ""));
    settings = ServerSettings.load(file);
    // the server starts first: vault comes up meanwhile, and the server connects to it by itself
    server = new TestServer(settings, METADATA, HOME_KEYSPACE, VAULT_KEYSPACE);
    vault = CompletableFuture.supplyAsync(TestSecureCassandra::get);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    // vault is left killed: the next user of the secure node starts it again
  }

  /** A namespace of the TimeSeries service in {@code dataset} on {@code cluster}. */
  static String timeSeries(String namespace, String dataset, String cluster) {
    return """
        {"namespace": "%s", "persistence_configuration": [{
          "id": "PRIMARY_STORAGE",
          "physical_storage": {"type": "CASSANDRA", "cluster": "%s", "dataset": "%s"},
          "config": {"acceptLimit": "7200s",
            "timePartition": {"secondsPerTimeSlice": "3600", "secondPerTimeBucket": "600", "eventBuckets": 1}}}]}"""
        .formatted(namespace, cluster, dataset);
  }

  /** A namespace of the KeyValue service, items in {@code dataset}.items, on {@code cluster}. */
  static String keyValue(String namespace, String dataset, String cluster) {
    return """
        {"namespace": "%s", "service": "KEY_VALUE", "persistence_configuration": [{
          "id": "PRIMARY_STORAGE",
          "physical_storage": {"type": "CASSANDRA", "cluster": "%s", "dataset": "%s", "table": "items"}}]}"""
        .formatted(namespace, cluster, dataset);
  }

  static String put(String namespace, String id, String value) {
    return ("{\"namespace\": \"%s\", \"id\": \"%s\", \"idempotency_token\": {\"generation_time\":"
            + " \"%s\", \"token\": \"%s\"}, \"items\": [{\"key\": \"aw==\", \"value\": \"%s\"}]}")
        .formatted(
            namespace,
            id,
            Instant.now(),
            UUID.randomUUID(),
            java.util.Base64.getEncoder().encodeToString(value.getBytes()));
  }

  static JsonNode health() throws Exception {
    HttpResponse<String> response =
        TestHttp.client()
            .send(
                HttpRequest.newBuilder(URI.create(server.base() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode())
        .as("a cluster out of reach leaves the server healthy: " + response.body())
        .isEqualTo(200);
    return TestServer.JSON.readTree(response.body());
  }

  /** A session of the vault cluster, opened as the server opens it. */
  static CqlSession vaultSession() {
    CassandraSettings vaultSettings = settings.clusters().get(0).settings();
    return Sessions.open(vaultSettings, List.of()).toCompletableFuture().join();
  }

  @Test
  @Order(1)
  void a_cluster_no_node_answers_is_unavailable_by_name_and_health_says_which() throws Exception {
    TestServer.Reply created =
        server.post("CreateNamespace", timeSeries("nowhere_events", "nowhere_ks", "nowhere"));

    assertThat(created.status()).as(created.body().toString()).isEqualTo(503);
    assertThat(created.body().path("error").path("code").asText()).isEqualTo("UNAVAILABLE");
    assertThat(created.errorMessage())
        .contains("cassandra cluster 'nowhere' cannot be reached")
        .contains("retrying is safe")
        .as("the nodes' addresses are for the log and /health, not for clients")
        .doesNotContain("127.0.0.1");
    JsonNode health = health();
    assertThat(health.path("status").asText()).isEqualTo("DEGRADED");
    assertThat(health.path("clusters").path("default").path("reachable").asBoolean()).isTrue();
    assertThat(health.path("clusters").path("nowhere").path("reachable").asBoolean()).isFalse();
    assertThat(health.path("clusters").path("nowhere").path("error").asText()).isNotBlank();
    assertThat(server.metricsText())
        .contains("varve_cassandra_nodes{cluster=\"nowhere\",state=\"up\"} 0.0")
        .contains("varve_cassandra_nodes{cluster=\"default\",state=\"up\"} 1.0");
  }

  @Test
  @Order(2)
  void an_unknown_cluster_is_refused_at_create_naming_the_field() {
    for (String body :
        List.of(
            timeSeries("elsewhere_events", "elsewhere_ks", "elsewhere"),
            keyValue("elsewhere_items", "elsewhere_ks", "elsewhere"))) {
      TestServer.Reply created = server.post("CreateNamespace", body);

      assertThat(created.status()).as(created.body().toString()).isEqualTo(400);
      assertThat(created.errorField())
          .isEqualTo("persistence_configuration[0].physicalStorage.cluster");
      assertThat(created.errorMessage()).contains("elsewhere").contains("nowhere, vault");
    }
  }

  @Test
  @Order(3)
  void each_namespace_lives_on_the_cluster_it_names() throws Exception {
    vault.join();
    TestServer.await(
        "the server connected to vault",
        () -> health().path("clusters").path("vault").path("reachable").asBoolean());
    try (CqlSession cql = vaultSession()) {
      cql.execute(
          SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + VAULT_KEYSPACE)
              .setTimeout(Duration.ofSeconds(30)));
    }
    for (String body :
        List.of(
            timeSeries(VAULT_EVENTS, VAULT_KEYSPACE, "vault"),
            keyValue(VAULT_ITEMS, VAULT_KEYSPACE, "vault"),
            timeSeries(HOME_EVENTS, HOME_KEYSPACE, ""))) {
      TestServer.Reply created = server.post("CreateNamespace", body);
      assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    }

    for (String ns : List.of(VAULT_EVENTS, HOME_EVENTS)) {
      TestServer.Reply written =
          server.post(
              "WriteEventRecordsSync", write(ns, List.of(event("s", TIME, ns + "-1", "k", "v"))));
      assertThat(written.body().path("writtenCount").asInt())
          .as(written.body().toString())
          .isEqualTo(1);
      TestServer.Reply readBack =
          server.post("ReadEventRecords", read(ns, "s", TIME.minusSeconds(1), TIME.plusSeconds(1)));
      assertThat(ids(readBack.body())).as(readBack.body().toString()).containsExactly(ns + "-1");
    }
    TestServer.Reply put = server.post("PutItems", put(VAULT_ITEMS, "r", "kept in the vault"));
    assertThat(put.status()).as(put.body().toString()).isEqualTo(200);
    TestServer.Reply got =
        server.post("GetItems", "{\"namespace\": \"" + VAULT_ITEMS + "\", \"id\": \"r\"}");
    assertThat(got.body().path("items").get(0).path("value").asText())
        .as(got.body().toString())
        .isEqualTo(java.util.Base64.getEncoder().encodeToString("kept in the vault".getBytes()));

    // where the rows are: the vault keyspace on vault only, the home keyspace on the default only
    try (CqlSession cql = vaultSession()) {
      assertThat(rows(cql, VAULT_KEYSPACE)).isEqualTo(2); // one event, one item
      assertThat(cql.getMetadata().getKeyspace(HOME_KEYSPACE)).isEmpty();
    }
    assertThat(rows(server.cql, HOME_KEYSPACE)).isEqualTo(1);
    assertThat(server.cql.getMetadata().getKeyspace(VAULT_KEYSPACE)).isEmpty();
    // a value over the chunk threshold: its chunks on vault, its log entry in the control plane
    byte[] large = new byte[(5 << 20) / 2];
    new java.util.Random(42).nextBytes(large);
    String encoded = java.util.Base64.getEncoder().encodeToString(large);
    TestServer.Reply bigPut =
        server.post(
            "PutItems",
            put(VAULT_ITEMS, "big", "")
                .replace("\"value\": \"\"", "\"value\": \"" + encoded + "\""));
    assertThat(bigPut.status()).as(bigPut.body().toString()).isEqualTo(200);
    TestServer.Reply bigGot =
        server.post("GetItems", "{\"namespace\": \"" + VAULT_ITEMS + "\", \"id\": \"big\"}");
    assertThat(bigGot.body().path("items").get(0).path("value").asText()).isEqualTo(encoded);
    try (CqlSession cql = vaultSession()) {
      assertThat(
              cql.execute("SELECT COUNT(*) FROM " + VAULT_KEYSPACE + ".items_chunks")
                  .one()
                  .getLong(0))
          .isPositive();
    }
    assertThat(server.metricsText())
        .containsPattern(
            "varve_cassandra_requests_seconds_count\\{cluster=\"vault\",operation=\"write\","
                + "outcome=\"success\"\\} [1-9]");
  }

  /** The rows of every table of {@code keyspace}. */
  static long rows(CqlSession cql, String keyspace) {
    long rows = 0;
    for (Row table :
        cql.execute(
            "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", keyspace)) {
      rows +=
          cql.execute(
                  SimpleStatement.newInstance(
                          "SELECT COUNT(*) FROM " + keyspace + "." + table.getString(0))
                      .setTimeout(Duration.ofSeconds(30)))
              .one()
              .getLong(0);
    }
    return rows;
  }

  @Test
  @Order(4)
  void a_keyspace_lives_on_one_cluster() {
    TestServer.Reply created =
        server.post("CreateNamespace", timeSeries("stray_events", VAULT_KEYSPACE, ""));

    assertThat(created.status()).as(created.body().toString()).isEqualTo(400);
    assertThat(created.errorField())
        .isEqualTo("persistence_configuration[0].physicalStorage.cluster");
    assertThat(created.errorMessage())
        .contains("'vault', the cluster of keyspace '" + VAULT_KEYSPACE + "'");
    assertThat(server.cql.getMetadata().getKeyspace(VAULT_KEYSPACE)).isEmpty();
  }

  @Test
  @Order(5)
  void a_namespace_cannot_move_to_another_cluster() {
    for (String body :
        List.of(
            timeSeries(VAULT_EVENTS, VAULT_KEYSPACE, ""),
            keyValue(VAULT_ITEMS, VAULT_KEYSPACE, ""),
            timeSeries(HOME_EVENTS, HOME_KEYSPACE, "vault"))) {
      TestServer.Reply updated = server.post("UpdateNamespace", body);

      assertThat(updated.status()).as(updated.body().toString()).isEqualTo(400);
      assertThat(updated.errorField())
          .isEqualTo("persistence_configuration[0].physicalStorage.cluster");
      assertThat(updated.errorMessage()).contains("it cannot change");
    }
  }

  @Test
  @Order(6)
  void a_killed_cluster_degrades_only_its_namespaces() throws Exception {
    assertThat(vault.join().kill()).isTrue();

    TestServer.await(
        "vault seen down",
        () -> !health().path("clusters").path("vault").path("reachable").asBoolean());
    TestServer.Reply got =
        server.post("GetItems", "{\"namespace\": \"" + VAULT_ITEMS + "\", \"id\": \"r\"}");
    assertThat(got.status()).as(got.body().toString()).isEqualTo(503);
    assertThat(got.errorMessage()).contains("cassandra cluster 'vault'");
    TestServer.Reply durable =
        server.post(
            "WriteEventRecordsSync",
            write(VAULT_EVENTS, List.of(event("s", TIME, "lost", "k", "v"))));
    assertThat(durable.body().path("writtenCount").asInt()).as(durable.body().toString()).isZero();
    assertThat(durable.body().path("errors").get(0).path("code").asText()).isEqualTo("UNAVAILABLE");
    assertThat(durable.body().path("errors").get(0).path("message").asText())
        .contains("cassandra cluster 'vault'");
    TestServer.Reply buffered =
        server.post(
            "WriteEventRecords", write(VAULT_EVENTS, List.of(event("s", TIME, "late", "k", "v"))));
    assertThat(buffered.status()).as(buffered.body().toString()).isEqualTo(503);
    assertThat(buffered.errorMessage()).contains("cassandra cluster 'vault' cannot be reached");

    // the default cluster's namespaces are served as before, durable and fire-and-forget
    TestServer.Reply written =
        server.post(
            "WriteEventRecordsSync",
            write(HOME_EVENTS, List.of(event("s", TIME.plusMillis(1), "after-kill", "k", "v"))));
    assertThat(written.body().path("writtenCount").asInt())
        .as(written.body().toString())
        .isEqualTo(1);
    TestServer.Reply queued =
        server.post(
            "WriteEventRecords",
            write(HOME_EVENTS, List.of(event("s", TIME.plusMillis(2), "queued", "k", "v"))));
    assertThat(queued.status()).as(queued.body().toString()).isEqualTo(200);
    TestServer.await(
        "the queued event read back",
        () ->
            ids(server
                    .post(
                        "ReadEventRecords",
                        read(HOME_EVENTS, "s", TIME.minusSeconds(1), TIME.plusSeconds(1)))
                    .body())
                .contains("queued"));
    JsonNode health = health();
    assertThat(health.path("status").asText()).isEqualTo("DEGRADED");
    assertThat(health.path("clusters").path("default").path("reachable").asBoolean()).isTrue();
    assertThat(health.path("clusters").path("vault").path("error").asText())
        .contains("no node is up");
  }

  @Test
  @Order(7)
  void a_cluster_removed_from_the_configuration_leaves_its_namespaces_unserved_not_moved()
      throws Exception {
    try (VarveServer without =
        another(
            "without-vault.yaml",
            "  clusters:",
            "    - name: nowhere",
            "      contactPoints: [\"127.0.0.1:9\"]",
            "      localDatacenter: datacenter1")) {
      String base = "http://127.0.0.1:" + without.port();
      TestServer.await(
          "vault's namespaces listed as unserved",
          () -> {
            JsonNode unserved = get(base + "/health").path("unservedNamespaces");
            return unserved.has(VAULT_EVENTS) && unserved.has(VAULT_ITEMS);
          });
      JsonNode health = get(base + "/health");
      assertThat(health.path("unservedNamespaces").path(VAULT_ITEMS).asText())
          .contains("physicalStorage.cluster")
          .contains("vault");
      HttpResponse<String> read =
          post(
              without,
              "ReadEventRecords",
              read(VAULT_EVENTS, "s", TIME.minusSeconds(1), TIME.plusSeconds(1)).toString());
      assertThat(read.statusCode()).as(read.body()).isEqualTo(412);
      assertThat(read.body()).contains("is not served");
    }
    // nothing of vault's namespaces was created on the default cluster meanwhile
    assertThat(server.cql.getMetadata().getKeyspace(VAULT_KEYSPACE)).isEmpty();
  }

  @Test
  @Order(8)
  void a_namespace_stored_on_a_keyspace_another_cluster_has_is_not_served() throws Exception {
    // a server that names no clusters (one not yet configured like the others, in a rollout)
    // takes the cluster name as informational, and stores a namespace in vault's keyspace on
    // the default cluster
    try (VarveServer plain = another("no-clusters.yaml")) {
      HttpResponse<String> created =
          post(plain, "CreateNamespace", keyValue("astray_items", VAULT_KEYSPACE, ""));
      assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    }

    // the server that routes by cluster does not serve it: vault's namespaces have that keyspace
    TestServer.await(
        "the namespace listed as unserved",
        () -> health().path("unservedNamespaces").has("astray_items"));
    assertThat(health().path("unservedNamespaces").path("astray_items").asText())
        .contains("keyspace '" + VAULT_KEYSPACE + "' lives on cluster 'vault'");
    TestServer.Reply got =
        server.post("GetItems", "{\"namespace\": \"astray_items\", \"id\": \"r\"}");
    assertThat(got.status()).as(got.body().toString()).isEqualTo(412);
  }

  /**
   * Another server on the same control plane (the test Cassandra, this class's metadata keyspace),
   * with the {@code cassandra} section's further lines {@code clusters}.
   */
  static VarveServer another(String name, String... clusters) throws Exception {
    Path file = config.resolve(name);
    InetSocketAddress home = TestCassandra.contactPoint();
    List<String> lines =
        new java.util.ArrayList<>(
            List.of(
                "cassandra:",
                "  contactPoints: [\"" + home.getHostString() + ":" + home.getPort() + "\"]",
                "  localDatacenter: datacenter1",
                "  metadataKeyspace: " + METADATA));
    lines.addAll(List.of(clusters));
    lines.add("");
    Files.writeString(file, String.join("\n", lines));
    return VarveServer.start(
        ServerSettings.load(file).toBuilder()
            .port(0)
            .shutdown(ServerSettings.Shutdown.AT_ONCE)
            .build());
  }

  /** A JSON POST of {@code rpc} to {@code to}. */
  static HttpResponse<String> post(VarveServer to, String rpc, String body) throws Exception {
    return TestHttp.client()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + "/v1/" + rpc))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode get(String url) throws Exception {
    HttpResponse<String> response =
        TestHttp.client()
            .send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    return TestServer.JSON.readTree(response.body());
  }
}
