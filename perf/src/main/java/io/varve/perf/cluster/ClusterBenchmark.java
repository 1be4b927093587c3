package io.varve.perf.cluster;

import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.perf.measure.Figures;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The write rate of the TimeSeries API in three setups, one after the other on fresh local
 * Cassandra homes under {@code .varve/perf-cluster} (CQL 39142, storage 37100, JMX 37299.., 512m
 * heap per node, commit log in batch mode): one node (replication factor 1); three nodes on
 * 127.0.0.1-3 (replication factor 3, LOCAL_QUORUM writes: each write waits for two fsyncs); one
 * node with TLS only and a password, and the server's API over TLS behind a token. The server runs
 * in this JVM; the figures are events acknowledged per second ({@link WriteLoad}). On one machine
 * the three nodes share its cores: the three-node figure is the cost of replication, not a scaling
 * claim.
 */
final class ClusterBenchmark {

  private static final Duration NODE_TIMEOUT = Duration.ofMinutes(4);

  private final Path varveHome;
  private final Path root;
  private final int durationSeconds;
  private final int warmupSeconds;
  private final int concurrency;
  private final int batch;
  private final Figures figures;

  ClusterBenchmark(
      Path varveHome,
      int durationSeconds,
      int warmupSeconds,
      int concurrency,
      int batch,
      Figures figures) {
    this.varveHome = varveHome;
    this.root = varveHome.resolve(".varve/perf-cluster");
    this.durationSeconds = durationSeconds;
    this.warmupSeconds = warmupSeconds;
    this.concurrency = concurrency;
    this.batch = batch;
    this.figures = figures;
  }

  void run() throws Exception {
    figures.put("cluster.concurrency", concurrency);
    figures.put("cluster.batch_events", batch);
    figures.put("cluster.duration_seconds", durationSeconds);
    double one = measure("one_node", LocalCassandraCluster.of(template("one"), 1), null);
    double three = measure("three_nodes", LocalCassandraCluster.of(template("three"), 3), null);
    LocalCassandraSecurity security = new LocalCassandraSecurity(root.resolve("tls"));
    double tls =
        measure(
            "tls",
            LocalCassandraCluster.of(template("tls").toBuilder().security(security).build(), 1),
            security);
    figures.put("cluster.three_nodes_vs_one_node", three / one);
    figures.put("cluster.tls_vs_plain", tls / one);
  }

  private LocalCassandraSettings template(String name) {
    return LocalCassandraSettings.forDevelopment(varveHome).toBuilder()
        .home(root.resolve(name))
        .ports(39142, 37100, 37299)
        .heapSize("512m")
        .build();
  }

  /** Starts the nodes from empty homes, a server on them, writes, and stops it all. */
  private double measure(
      String name, LocalCassandraCluster cluster, LocalCassandraSecurity security)
      throws Exception {
    for (LocalCassandra node : cluster.nodes()) {
      deleteTree(node.settings().home());
    }
    System.err.println("perf cluster: " + name + ": starting " + cluster.size() + " node(s)");
    try {
      cluster.start(NODE_TIMEOUT);
      Path config = root.resolve(name + "-varve.yaml");
      Files.writeString(config, serverConfig(cluster, security));
      try (VarveServer server =
              VarveServer.start(ServerSettings.load(config).toBuilder().port(0).build());
          WriteLoad load =
              new WriteLoad(
                  (security == null ? "http" : "https") + "://127.0.0.1:" + server.port(),
                  security,
                  concurrency,
                  batch)) {
        load.createNamespace("perf_cluster");
        System.err.println("perf cluster: " + name + ": writing");
        double rate =
            load.run(Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(durationSeconds));
        figures.put("cluster." + name + ".events_per_s", Math.round(rate));
        figures.put("cluster." + name + ".failed_requests", load.failed());
        return rate;
      }
    } finally {
      cluster.stop(Duration.ofMinutes(1));
    }
  }

  private static String serverConfig(
      LocalCassandraCluster cluster, LocalCassandraSecurity security) {
    String contactPoints =
        cluster.contactPoints().stream()
            .map(ClusterBenchmark::hostAndPort)
            .collect(Collectors.joining(", ", "[", "]"));
    StringBuilder yaml = new StringBuilder("server:\n  host: 127.0.0.1\n");
    if (security != null) {
      yaml.append("  tls:\n    certificateChain: ")
          .append(security.certificateChainPem())
          .append("\n    privateKey: ")
          .append(security.privateKeyPem())
          .append("\n  auth:\n    bearerTokens: [\"")
          .append(security.apiToken())
          .append("\"]\n");
    }
    yaml.append("cassandra:\n  contactPoints: ")
        .append(contactPoints)
        .append("\n  localDatacenter: datacenter1\n  metadataKeyspace: varve_perf_cluster\n")
        .append("  replication: {class: SimpleStrategy, replication_factor: ")
        .append(cluster.replicationFactor())
        .append("}\n");
    if (security != null) {
      yaml.append("  username: ")
          .append(LocalCassandraSecurity.ROLE)
          .append("\n  password: ")
          .append(security.rolePassword())
          .append("\n  tls:\n    truststore: ")
          .append(security.truststore())
          .append("\n    truststorePassword: ")
          .append(security.storePassword())
          .append("\n");
    }
    return yaml.toString();
  }

  private static String hostAndPort(InetSocketAddress address) {
    return "\"" + address.getHostString() + ":" + address.getPort() + "\"";
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
