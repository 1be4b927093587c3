package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraMain;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.NodeTool;
import io.varve.local.server.SecureApi;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code varve up --nodes 3 --secure} as a user runs it, with real processes, from empty nodes: the
 * three nodes with TLS and passwords, the roles replicated to all three, the server connected to
 * every node over TLS as the generated role; with a node down the role still logs in and the server
 * still answers; {@code down} stops everything, and {@code up} starts the cluster again on its
 * data.
 *
 * <p>About 8 minutes on a busy two-core machine, most of it starting nodes one at a time: not in
 * {@code ./varve test}, but in {@code ./varve test spark-cluster} with the other cluster test,
 * which sets {@value #ENABLED}. A Varve home of its own, {@code .varve/up-cluster-it}; nodes on
 * 127.0.0.1-3 with CQL 26042, storage 26000, JMX 26199-26201 (apart from every other test's
 * Cassandra), the server on API port 26080.
 */
class UpClusterSecureIT {

  /** The system property that runs this test. */
  static final String ENABLED = "varve.test.up-cluster";

  private static final List<String> PORTS =
      List.of("--cql-port", "26042", "--storage-port", "26000", "--jmx-port", "26199");

  @RegisterExtension final StandardStreams streams = new StandardStreams();

  static UpTestHome up;

  @BeforeAll
  static void emptyHome() throws IOException {
    assumeTrue(Boolean.getBoolean(ENABLED), "-D" + ENABLED + "=true runs it");
    up = UpTestHome.create("up-cluster-it", 26080);
    up.run("down", "--cql-port", "26042");
    Path cluster = up.home().resolve(".varve/cassandra-cluster");
    if (Files.exists(cluster)) {
      try (Stream<Path> files = Files.walk(cluster)) {
        files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
      }
    }
  }

  @AfterAll
  static void down() {
    if (up != null) {
      up.run("down", "--cql-port", "26042");
    }
  }

  @Test
  void up_nodes_3_secure_replicates_the_roles_serves_with_a_node_down_and_restarts()
      throws Exception {
    assertThat(up.run("up", args("--nodes", "3", "--secure", "--no-opensearch")))
        .as(streams.err())
        .isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .contains("cassandra node3: ready at 127.0.0.3:26042")
        .contains("cassandra: every running node holds the others alive (3 nodes)")
        .contains("system_auth (roles and credentials) now has replication factor 3");
    LocalCassandraCluster cluster =
        up.inHome(() -> Instances.cluster(26042, 26000, 26199, 3, true));
    LocalCassandraSecurity security = LocalCassandraSecurity.forDevelopment(up.home());

    assertThat(up.run("status", "--cql-port", "26042")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .contains("cassandra node1: running", "cassandra node2: running")
        .contains("cassandra node3: running", "varve: running");
    String endpoints =
        nodetool(
            cluster.node(1), "getendpoints", "system_auth", "roles", LocalCassandraSecurity.ROLE);
    assertThat(endpoints.lines()).containsExactlyInAnyOrder("127.0.0.1", "127.0.0.2", "127.0.0.3");
    for (LocalCassandra node : cluster.nodes()) {
      // The server's driver is the only client of the nodes that stays connected.
      assertThat(nodetool(node, "clientstats", "--all"))
          .as("clients of " + node.settings().address())
          .containsPattern(
              "(?m)^/?127\\.0\\.0\\.1:\\d+\\s+true\\s+.*\\s" + LocalCassandraSecurity.ROLE + "\\s");
    }

    HttpClient https = UpTestHome.https(new SecureApi(security.caPem(), security.apiTokenFile()));
    String token = security.apiToken();
    HttpResponse<String> created =
        call(
            https,
            "CreateNamespace",
            "{\"namespace\":\"up_cluster_it\",\"persistence_configuration\":"
                + "[{\"id\":\"PRIMARY_STORAGE\"}]}",
            token);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    cluster.node(2).kill();
    assertThat(cluster.node(1).isReady()).as("role logs in on node 1, node 2 down").isTrue();
    assertThat(cluster.node(3).isReady()).as("role logs in on node 3, node 2 down").isTrue();
    HttpResponse<String> listed = call(https, "ListNamespaces", "{}", token);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(listed.body()).contains("up_cluster_it");

    assertThat(up.run("down", "--cql-port", "26042")).isEqualTo(ExitStatus.OK.code());
    assertThat(up.run("status", "--cql-port", "26042"))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .contains("cassandra node1: stopped", "cassandra node2: stopped")
        .contains("cassandra node3: stopped", "varve: not running");

    // Again on the nodes' data: node 1 alone cannot read the replicated roles, yet up goes on.
    assertThat(up.run("up", args("--nodes", "3", "--secure", "--no-opensearch")))
        .as(streams.err())
        .isEqualTo(ExitStatus.OK.code());
    listed = call(https, "ListNamespaces", "{}", token);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(listed.body()).contains("up_cluster_it");

    // And by the launcher alone: it too waits for the role's login only once every node runs.
    assertThat(up.run("down", "--cql-port", "26042")).isEqualTo(ExitStatus.OK.code());
    String[] launcher = {
      "start",
      "--nodes",
      "3",
      "--secure",
      "--varve-home",
      up.home().toString(),
      "--port",
      "26042",
      "--storage-port",
      "26000",
      "--jmx-port",
      "26199"
    };
    ByteArrayOutputStream launched = new ByteArrayOutputStream();
    ByteArrayOutputStream failed = new ByteArrayOutputStream();
    int status =
        LocalCassandraMain.run(
            launcher,
            new PrintStream(launched, true, StandardCharsets.UTF_8),
            new PrintStream(failed, true, StandardCharsets.UTF_8));
    assertThat(status).as(failed.toString(StandardCharsets.UTF_8)).isEqualTo(ExitStatus.OK.code());
    for (LocalCassandra node : cluster.nodes()) {
      assertThat(node.isReady()).as("role logs in on " + node.settings().address()).isTrue();
    }
    assertThat(launched.toString(StandardCharsets.UTF_8))
        .contains("node=3", "already running")
        .contains("cassandra: every running node holds the others alive (3 nodes)");
    for (int n = 1; n <= 3; n++) {
      assertThat(cluster.liveNodesSeenBy(n))
          .as("node " + n + "'s view")
          .containsExactlyInAnyOrder("127.0.0.1", "127.0.0.2", "127.0.0.3");
    }
  }

  private static String[] args(String... args) {
    return Stream.concat(Stream.of(args), PORTS.stream()).toArray(String[]::new);
  }

  private static String nodetool(LocalCassandra node, String... args) {
    return NodeTool.run(node.settings(), List.of(args), Duration.ofMinutes(1));
  }

  private static HttpResponse<String> call(HttpClient https, String rpc, String json, String token)
      throws Exception {
    return https.send(UpTestHome.call(up.secureApi(), rpc, json, token), UpTestHome.ofString());
  }
}
