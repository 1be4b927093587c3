package io.varve.perf.environment;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.cassandra.session.CassandraSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What a benchmark of a server on Cassandra sets up before its phases: the Cassandra it runs on, a
 * CQL session, its keyspaces dropped before the run (what an earlier one left) and again at its
 * end, and the server it measures, a process of the run's own. Everything is undone by the {@link
 * Environment}'s cleanup: the server stopped, then the keyspaces dropped, then the session closed.
 * CLI classpath only, as {@link BenchmarkCassandra}.
 *
 * @param cassandra the Cassandra and its settings
 * @param session a CQL session on it, for the baseline clients and the checks
 * @param serverConfiguration the server's configuration file (YAML), for more servers like it
 * @param server the server measured
 */
public record Testbed(
    BenchmarkCassandra cassandra,
    CqlSession session,
    String serverConfiguration,
    VarveServer server) {

  private static final Duration DROP_TIMEOUT = Duration.ofMinutes(1);

  /**
   * Sets up a benchmark's testbed, with nothing of its own made before its server starts.
   *
   * @see #open(Environment, String, String, List, BiConsumer, String, ServerJvm, Function)
   */
  public static Testbed open(
      Environment environment,
      String cassandraOption,
      String metadataKeyspace,
      List<String> keyspaces,
      String serverName,
      Function<BenchmarkCassandra, String> configuration)
      throws Exception {
    return open(
        environment,
        cassandraOption,
        metadataKeyspace,
        keyspaces,
        (session, settings) -> {},
        serverName,
        ServerJvm.UP,
        configuration);
  }

  /**
   * Sets up a benchmark's testbed.
   *
   * @param cassandraOption {@code --cassandra}'s host:port, or null for the local Cassandra
   *     (started if need be)
   * @param metadataKeyspace the server's metadata keyspace, dropped with the others
   * @param keyspaces the benchmark's own keyspaces: its namespaces' and its baseline's
   * @param schema what the benchmark creates once they are dropped, before its server starts (its
   *     baseline's tables), on the session and the Cassandra's settings
   * @param serverName the server's directory under {@code .varve/}, like {@code perf-kv-server}
   * @param serverJvm the server's JVM
   * @param configuration the server's configuration file, from the Cassandra's {@link
   *     BenchmarkCassandra#serverConfiguration()} and what the benchmark adds
   */
  public static Testbed open(
      Environment environment,
      String cassandraOption,
      String metadataKeyspace,
      List<String> keyspaces,
      BiConsumer<CqlSession, CassandraSettings> schema,
      String serverName,
      ServerJvm serverJvm,
      Function<BenchmarkCassandra, String> configuration)
      throws Exception {
    BenchmarkCassandra cassandra =
        BenchmarkCassandra.of(environment, cassandraOption, metadataKeyspace);
    CqlSession session = cassandra.session(environment);
    List<String> dropped = new ArrayList<>(keyspaces);
    dropped.add(metadataKeyspace);
    drop(session, dropped);
    environment.atEnd("drop the benchmark's keyspaces", () -> drop(session, dropped));
    schema.accept(session, cassandra.settings());
    String serverConfiguration = configuration.apply(cassandra);
    VarveServer server = VarveServer.start(environment, serverName, serverConfiguration, serverJvm);
    return new Testbed(cassandra, session, serverConfiguration, server);
  }

  private static void drop(CqlSession session, List<String> keyspaces) {
    for (String keyspace : keyspaces) {
      session.execute(
          SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
              .setTimeout(DROP_TIMEOUT));
    }
  }
}
