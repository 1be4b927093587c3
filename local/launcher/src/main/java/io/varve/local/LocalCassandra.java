package io.varve.local;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One local Apache Cassandra node, run as its own operating-system process in its own session,
 * so it outlives the JVM that started it and a Ctrl-C of the calling shell.
 *
 * <p>The state lives on disk, in the node's home directory: any number of {@code LocalCassandra}
 * objects, in any number of JVMs, may control the same node. {@link #start()} is serialized
 * across processes by a lock file in the home directory. A process is only ever signalled after
 * checking that its command line runs Cassandra with this home directory.
 *
 * <p>Thread-safe.
 */
public final class LocalCassandra {

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private final LocalCassandraSettings settings;
  private final ManagedNode node;

  /** A handle on the node these settings describe; creates nothing and starts nothing. */
  public LocalCassandra(LocalCassandraSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.node = new ManagedNode("Cassandra", settings.home(), settings.pidFile(), CassandraCommandLine.MAIN_CLASS,
        CassandraCommandLine.storageDirArgument(settings.home()), LocalCassandraException::new,
        () -> LogTail.describe(settings.systemLog(), settings.stdoutLog()), this::isReady, Duration.ofMillis(250),
        settings.cqlAddress(), this::launch);
  }

  /** The process lifecycle, for the command line. */
  ManagedNode node() {
    return node;
  }

  /** The settings of this node. */
  public LocalCassandraSettings settings() {
    return settings;
  }

  /**
   * Starts the node unless it already runs, and returns without waiting for it to accept
   * clients (see {@link #awaitReady(Duration)}). Writes {@code conf/}, launches
   * {@code setsid java ... CassandraDaemon} with its output in {@code logs/stdout.log}, and
   * records the pid in {@code cassandra.pid}. A stale pid file is replaced.
   *
   * @return the status of the running node: {@link CassandraStatus.State#RUNNING} and its pid
   * @throws LocalCassandraException if the jars are not built, the runtime is not Java 17, a port
   *     is taken by another process, or the home directory cannot be written
   */
  public CassandraStatus start() {
    return status(node.start());
  }

  /**
   * Waits until the node answers a CQL {@code OPTIONS} request.
   *
   * @throws LocalCassandraException if the node is not running, exits while starting, or does not
   *     answer within the timeout; the message quotes the end of {@code logs/system.log} and
   *     of {@code logs/stdout.log}
   */
  public void awaitReady(Duration timeout) {
    node.awaitReady(timeout);
  }

  /** Whether the node answers a CQL {@code OPTIONS} request right now. */
  public boolean isReady() {
    return NativeProtocolProbe.answersOptions(settings.cqlAddress(), PROBE_TIMEOUT);
  }

  /**
   * Stops the node: SIGTERM, so that it flushes and closes cleanly, then SIGKILL if it is still
   * there after the timeout. Removes the pid file. Does nothing if the node is not running.
   *
   * @return whether a running node was stopped
   */
  public boolean stop(Duration timeout) {
    return node.stop(timeout);
  }

  /**
   * Kills the node with SIGKILL, as a crash would, and waits until it is gone. The pid file is
   * left behind, stale, as after a real crash. Does nothing if the node is not running.
   *
   * @return whether a running node was killed
   */
  public boolean kill() {
    return node.kill();
  }

  /** The node's status from its pid file and the live processes; cheap, sends no request. */
  public CassandraStatus status() {
    return status(node.status());
  }

  private long launch() throws IOException {
    List<String> command = CassandraCommandLine.of(settings);
    for (int port : new int[] {settings.cqlPort(), settings.storagePort(), settings.jmxPort()}) {
      node.requirePortFree(LocalCassandraSettings.ADDRESS, port, "");
    }
    for (String directory : List.of("data", "commitlog", "saved_caches", "hints", "logs")) {
      Files.createDirectories(settings.home().resolve(directory));
    }
    CassandraConfigWriter.write(settings);
    return node.spawn(command, settings.stdoutLog());
  }

  private CassandraStatus status(ManagedNode.Status status) {
    return new CassandraStatus(CassandraStatus.State.valueOf(status.state().name()), status.pid(),
        settings.cqlAddress());
  }
}
