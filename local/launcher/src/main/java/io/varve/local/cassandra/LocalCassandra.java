package io.varve.local.cassandra;

import io.varve.local.LocalServer;
import io.varve.local.Product;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One local Apache Cassandra node, run as its own operating-system process in its own session (the
 * lifecycle of every {@link LocalServer}).
 *
 * <p>{@link #start()} writes {@code conf/}, checks that the CQL, storage and JMX ports are free,
 * launches {@code setsid java ... CassandraDaemon} with its output in {@code logs/stdout.log}, and
 * records the pid in {@code cassandra.pid}; it fails if the jars are not built or the runtime is
 * not Java 17. The node is ready when it answers a CQL {@code OPTIONS} request; a failed start
 * quotes the end of {@code logs/system.log} and of {@code logs/stdout.log}. {@link #stop} lets it
 * flush and close on SIGTERM.
 *
 * <p>Thread-safe.
 */
public final class LocalCassandra extends LocalServer {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private final LocalCassandraSettings settings;
  private final boolean bootstrap;

  /** A handle on the node these settings describe; creates nothing and starts nothing. */
  public LocalCassandra(LocalCassandraSettings settings) {
    this(settings, true);
  }

  /**
   * @param bootstrap false: at its first start the node joins without a bootstrap ({@code
   *     auto_bootstrap: false}), for a node of a cluster built empty ({@link
   *     LocalCassandraCluster#start}); a node that ran before keeps its saved tokens either way
   */
  LocalCassandra(LocalCassandraSettings settings, boolean bootstrap) {
    super(definition(settings));
    this.settings = settings;
    this.bootstrap = bootstrap;
  }

  private static Definition definition(LocalCassandraSettings settings) {
    Objects.requireNonNull(settings, "settings");
    return new Definition(
        Product.CASSANDRA,
        settings.home(),
        settings.pidFile(),
        CassandraCommandLine.MAIN_CLASS,
        CassandraCommandLine.storageDirArgument(settings.home()),
        List.of(settings.systemLog(), settings.stdoutLog()),
        Duration.ofMillis(250),
        settings.cqlAddress(),
        settings.cqlAddress().toString());
  }

  /** The settings of this node. */
  public LocalCassandraSettings settings() {
    return settings;
  }

  /**
   * Whether the node answers a CQL {@code OPTIONS} request right now; a secure node, whether its
   * role logs in over TLS (made at its first start, see {@link LocalCassandraSecurity}).
   */
  @Override
  public boolean isReady() {
    return settings
        .security()
        .map(security -> SecureNodeLogin.ready(settings.cqlAddress(), security, PROBE_TIMEOUT))
        .orElseGet(() -> NativeProtocolProbe.answersOptions(settings.cqlAddress(), PROBE_TIMEOUT));
  }

  /**
   * Whether the node answers a CQL {@code OPTIONS} request right now (over TLS for a secure node):
   * it has started and joined its ring. A plain node is then ready; a secure node of a cluster may
   * not be yet, as its role is read from a quorum of the replicas of {@code system_auth}, which
   * other nodes hold.
   */
  public boolean answersCql() {
    return settings
        .security()
        .map(security -> SecureNodeLogin.answers(settings.cqlAddress(), security, PROBE_TIMEOUT))
        .orElseGet(() -> NativeProtocolProbe.answersOptions(settings.cqlAddress(), PROBE_TIMEOUT));
  }

  /**
   * Waits until the node {@linkplain #answersCql() answers CQL}: what a cluster waits for before
   * the next node starts.
   *
   * @throws io.varve.local.LocalServerException as {@link #awaitReady(Duration)}
   */
  public void awaitCql(Duration timeout) {
    await(this::answersCql, timeout);
  }

  @Override
  protected long launch() throws IOException {
    List<String> command = CassandraCommandLine.of(settings);
    requirePortFree(settings.address(), settings.cqlPort(), "");
    requirePortFree(settings.address(), settings.storagePort(), "");
    // Cassandra binds its local-only JMX to 127.0.0.1 whatever the node's address.
    requirePortFree(LocalCassandraSettings.ADDRESS, settings.jmxPort(), " (JMX)");
    for (String directory : List.of("data", "commitlog", "saved_caches", "hints", "logs")) {
      Files.createDirectories(settings.home().resolve(directory));
    }
    settings.security().ifPresent(LocalCassandraSecurity::ensure);
    CassandraConfigWriter.write(settings, bootstrap);
    return spawn(command, settings.stdoutLog());
  }
}
