package io.varve.cli;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
import io.varve.local.server.SecureApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local Cassandra, OpenSearch and server that {@code up}, {@code down} and {@code status}
 * manage.
 */
final class Instances {

  static final int DEFAULT_PORT = 8080;

  static final int DEFAULT_CQL_PORT = 9042;

  static final int DEFAULT_OPENSEARCH_PORT = 9200;

  /** The API address of the server that {@code varve up} starts on its default port. */
  static final String DEFAULT_SERVER = "http://127.0.0.1:" + DEFAULT_PORT;

  private Instances() {}

  static Path home() {
    return VarveHome.locate();
  }

  /**
   * The developer's single node ({@code .varve/cassandra}) with this CQL port; {@code secure}: with
   * TLS and passwords ({@link #security()}).
   */
  static LocalCassandra cassandra(int cqlPort, boolean secure) {
    return cluster(cqlPort, 1, secure).node(1);
  }

  /**
   * The developer's cluster of {@code nodes} nodes ({@code .varve/cassandra-cluster/node<n>} on
   * 127.0.0.1..n) with this CQL port and the default storage and JMX ports; one node is the single
   * node of {@link #cassandra(int, boolean)}.
   */
  static LocalCassandraCluster cluster(int cqlPort, int nodes, boolean secure) {
    LocalCassandraSettings defaults = LocalCassandraSettings.forDevelopment(home());
    return cluster(cqlPort, defaults.storagePort(), defaults.jmxPort(), nodes, secure);
  }

  /**
   * As {@link #cluster(int, int, boolean)}, with these storage and JMX ports (node {@code n}'s JMX
   * port is {@code jmxPort + n - 1}).
   */
  static LocalCassandraCluster cluster(
      int cqlPort, int storagePort, int jmxPort, int nodes, boolean secure) {
    LocalCassandraSettings first =
        nodes == 1
            ? LocalCassandraSettings.forDevelopment(home())
            : LocalCassandraCluster.developmentTemplate(home());
    first = first.toBuilder().ports(cqlPort, storagePort, jmxPort).build();
    return LocalCassandraCluster.of(
        secure ? first.toBuilder().security(security()).build() : first, nodes);
  }

  /**
   * The certificates, stores, passwords and API token of {@code up --secure}, generated on first
   * use: {@code .varve/secure}.
   */
  static LocalCassandraSecurity security() {
    return LocalCassandraSecurity.forDevelopment(home());
  }

  /**
   * The instance that the last {@code up} recorded ({@code .varve/server/instance.properties}, see
   * {@link UpInstance}), which {@code status} and {@code down} act on; the defaults if none did. A
   * home where an older {@code up --secure} left only {@code .varve/server/secure} is secure.
   *
   * @throws IllegalStateException if the record is not valid, naming the file and the value
   */
  static UpInstance lastUp() {
    return UpInstance.read(upRecord())
        .orElseGet(() -> UpInstance.defaults(1, Files.exists(legacySecureMarker())));
  }

  /**
   * Records the instance that this {@code up} starts, for {@link #lastUp()}: before anything
   * starts, so that {@code status} and {@code down} find whatever part of it did.
   */
  static void recordUp(UpInstance instance) throws IOException {
    instance.write(upRecord());
    Files.deleteIfExists(legacySecureMarker());
  }

  /** Where {@code up} records its instance: {@code .varve/server/instance.properties}. */
  static Path upRecord() {
    return serverHome().resolve(UpInstance.FILE_NAME);
  }

  private static Path legacySecureMarker() {
    return serverHome().resolve("secure");
  }

  /**
   * The local servers of {@code instance} that {@code down} stops, in that order: the Varve servers
   * ({@link #serverNodes}), the single node, the nodes of the cluster (the seed, node 1, last),
   * OpenSearch. Pids are those of the pid files of this home; each is checked to be this home's
   * process before anything is signalled ({@link io.varve.local.LocalServer}).
   */
  static List<LocalNode> nodes(UpInstance instance) {
    List<LocalNode> nodes = new ArrayList<>(serverNodes(instance));
    nodes.add(LocalNode.cassandra(cassandra(instance.cqlPort(), instance.secure())));
    List<LocalCassandra> cluster = clusterNodes(instance);
    for (int n = cluster.size(); n >= 1; n--) {
      nodes.add(LocalNode.clusterNode(cluster.get(n - 1), n));
    }
    nodes.add(LocalNode.opensearch(opensearch(instance.opensearchPort())));
    return nodes;
  }

  /**
   * The nodes of the developer's cluster that {@code status} and {@code down} see for {@code
   * instance}: as many as it has ({@code up --nodes N}) or as {@code .varve/cassandra-cluster} has
   * {@code node<n>} directories, whichever is more; none if that is one.
   */
  static List<LocalCassandra> clusterNodes(UpInstance instance) {
    int nodes = Math.max(instance.nodes(), clusterNodesOnDisk());
    return nodes < 2 ? List.of() : cluster(instance.cqlPort(), nodes, instance.secure()).nodes();
  }

  private static int clusterNodesOnDisk() {
    Path directory = LocalCassandraCluster.developmentTemplate(home()).home();
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    try (Stream<Path> entries = Files.list(directory)) {
      return (int)
          entries
              .filter(Files::isDirectory)
              .filter(p -> p.getFileName().toString().matches("node[1-9]"))
              .count();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory, e);
    }
  }

  /**
   * The development OpenSearch ({@code .varve/opensearch}) on this REST port and that port plus 100
   * for transport.
   */
  static LocalOpenSearch opensearch(int httpPort) {
    LocalOpenSearchSettings settings = LocalOpenSearchSettings.forDevelopment(home());
    return new LocalOpenSearch(
        httpPort == settings.httpPort()
            ? settings
            : new LocalOpenSearchSettings(
                settings.home(),
                settings.libDirectory(),
                httpPort,
                httpPort + 100,
                settings.heapSize(),
                settings.javaExecutable()));
  }

  /** The directory of the server of {@code varve up}: {@code .varve/server}. */
  static Path serverHome() {
    return LocalVarveServerSettings.forDevelopment(home()).home();
  }

  /**
   * The directory of server {@code k} of {@code varve up --servers N}: {@code .varve/server} for
   * the first (which also holds the instance's record and {@code up.yaml}), {@code
   * .varve/server-<k>} for the others.
   */
  static Path serverHome(int k) {
    return k == 1 ? serverHome() : serverHome().resolveSibling("server-" + k);
  }

  /**
   * The Varve servers of {@code instance} that {@code status} and {@code down} see, as {@link
   * LocalNode}s: as many as it has ({@code up --servers N}) or as the home has server directories,
   * whichever is more, so that servers left by an earlier {@code up} with more servers are seen.
   */
  static List<LocalNode> serverNodes(UpInstance instance) {
    int count = Math.max(instance.servers(), serversOnDisk());
    List<LocalNode> nodes = new ArrayList<>();
    for (int k = 1; k <= count; k++) {
      nodes.add(LocalNode.server(server(k, instance.port(k), List.of(), instance.secure()), k));
    }
    return nodes;
  }

  private static int serversOnDisk() {
    int last = 1;
    for (int k = 2; k <= UpInstance.MAX_SERVERS; k++) {
      if (Files.isDirectory(serverHome(k))) {
        last = k;
      }
    }
    return last;
  }

  /**
   * The server of {@code varve up} ({@code .varve/server}) on this API port, with these arguments
   * of {@code serve}; {@code secure}: serving TLS only with the certificate of {@link #security()}
   * and asking for its token.
   */
  static LocalVarveServer server(int port, List<String> serveArgs, boolean secure) {
    return server(1, port, serveArgs, secure);
  }

  /** Server {@code k} of {@code varve up --servers N} ({@link #serverHome(int)}), as above. */
  static LocalVarveServer server(int k, int port, List<String> serveArgs, boolean secure) {
    LocalVarveServerSettings settings =
        LocalVarveServerSettings.forDevelopment(home()).toBuilder()
            .home(serverHome(k))
            .port(port)
            .serveArgs(serveArgs)
            .build();
    if (secure) {
      LocalCassandraSecurity security = security();
      settings =
          settings.toBuilder()
              .secureApi(new SecureApi(security.caPem(), security.apiTokenFile()))
              .build();
    }
    return new LocalVarveServer(settings);
  }
}
