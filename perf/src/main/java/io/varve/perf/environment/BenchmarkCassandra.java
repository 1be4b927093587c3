package io.varve.perf.environment;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.perf.measure.Listeners;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The Cassandra a benchmark runs on: the one {@code --cassandra host:port} names, or else the local
 * one ({@link Environment#cassandra()}, started if need be and then stopped at the end); the
 * settings of its clients and of the server the benchmark starts. Loads on the CLI's classpath only
 * (it uses the driver and the server's settings), not on Spark's.
 *
 * @param local the local Cassandra when the benchmark uses it, for its CPU time
 * @param settings the CQL settings: the contact point and the server's metadata keyspace
 */
public record BenchmarkCassandra(Optional<LocalServer> local, CassandraSettings settings) {

  /**
   * The Cassandra of {@code option} (host:port; null: the local one, which this waits for), with
   * the server's metadata in {@code metadataKeyspace}.
   */
  public static BenchmarkCassandra of(
      Environment environment, String option, String metadataKeyspace) {
    LocalServer local = null;
    if (option == null) {
      local = environment.cassandra();
      environment.awaitReady();
    }
    InetSocketAddress address =
        ServerSettings.contactPoint("--cassandra", local != null ? local.address() : option);
    return new BenchmarkCassandra(
        Optional.ofNullable(local),
        CassandraSettings.local(address.getPort())
            .withContactPoints(List.of(address))
            .withMetadataKeyspace(metadataKeyspace));
  }

  /**
   * Its process, when it runs on this machine: the local one's, or the one listening on the
   * loopback port of {@code --cassandra} ({@link Listeners}); so that a run measures its CPU time.
   */
  public OptionalLong pid() {
    if (local.isPresent()) {
      return OptionalLong.of(local.get().pid());
    }
    InetSocketAddress address = settings.contactPoints().get(0);
    return address.getAddress() != null && address.getAddress().isLoopbackAddress()
        ? Listeners.pidOf(address.getPort())
        : OptionalLong.empty();
  }

  /** Where it takes CQL. */
  public InetSocketAddress address() {
    return settings.contactPoints().get(0);
  }

  /** A CQL session, closed at the end of the run. */
  public CqlSession session(Environment environment) {
    return environment.closeAtEnd(
        "close the CQL session", Sessions.open(settings).toCompletableFuture().join());
  }

  /** The {@code cassandra:} section of the configuration file of the server the benchmark runs. */
  public String serverConfiguration() {
    InetSocketAddress address = settings.contactPoints().get(0);
    return "cassandra:\n  contactPoints: [\""
        + address.getHostString()
        + ":"
        + address.getPort()
        + "\"]\n  metadataKeyspace: "
        + settings.metadataKeyspace()
        + "\n";
  }
}
