package io.varve.local;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

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

  private static final Duration KILL_WAIT = Duration.ofSeconds(30);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private final LocalCassandraSettings settings;

  /** A handle on the node these settings describe; creates nothing and starts nothing. */
  public LocalCassandra(LocalCassandraSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
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
    // A file lock excludes other processes only; two threads of one JVM would collide on it.
    synchronized (LocalCassandra.class) {
      try {
        Files.createDirectories(settings.home());
        try (FileChannel channel = FileChannel.open(settings.home().resolve("start.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          Optional<ProcessHandle> running = NodeProcess.find(settings);
          return running(running.isPresent() ? running.get().pid() : launch());
        }
      } catch (IOException e) {
        throw new LocalCassandraException("Cannot start Cassandra in " + settings.home(), e);
      }
    }
  }

  /**
   * Waits until the node answers a CQL {@code OPTIONS} request.
   *
   * @throws LocalCassandraException if the node is not running, exits while starting, or does not
   *     answer within the timeout; the message quotes the end of {@code logs/system.log} and
   *     of {@code logs/stdout.log}
   */
  public void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isReady()) {
      if (NodeProcess.find(settings).isEmpty()) {
        throw new LocalCassandraException("Cassandra is not running (it exited or was never"
            + " started). " + logDiagnostics());
      }
      if (System.nanoTime() - deadline > 0) {
        throw new LocalCassandraException("Cassandra did not answer on " + address()
            + " within " + timeout.toSeconds() + " s. " + logDiagnostics());
      }
      NodeProcess.pause(Duration.ofMillis(250));
    }
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
    Optional<ProcessHandle> node = NodeProcess.find(settings);
    if (node.isPresent()) {
      node.get().destroy();
      if (!NodeProcess.awaitExit(node.get(), timeout)) {
        node.get().destroyForcibly();
        requireExit(node.get());
      }
    }
    new PidFile(settings.pidFile()).delete();
    return node.isPresent();
  }

  /**
   * Kills the node with SIGKILL, as a crash would, and waits until it is gone. The pid file is
   * left behind, stale, as after a real crash. Does nothing if the node is not running.
   *
   * @return whether a running node was killed
   */
  public boolean kill() {
    Optional<ProcessHandle> node = NodeProcess.find(settings);
    node.ifPresent(process -> {
      process.destroyForcibly();
      requireExit(process);
    });
    return node.isPresent();
  }

  /** The node's status from its pid file and the live processes; cheap, sends no request. */
  public CassandraStatus status() {
    Optional<ProcessHandle> node = NodeProcess.find(settings);
    if (node.isPresent()) {
      return running(node.get().pid());
    }
    OptionalLong pid = new PidFile(settings.pidFile()).read();
    if (pid.isPresent() || Files.exists(settings.pidFile())) {
      return new CassandraStatus(CassandraStatus.State.STALE, pid.orElse(0), address());
    }
    return new CassandraStatus(CassandraStatus.State.STOPPED, 0, address());
  }

  private long launch() throws IOException {
    List<String> command = CassandraCommandLine.of(settings);
    requirePortsFree();
    for (String directory : List.of("data", "commitlog", "saved_caches", "hints", "logs")) {
      Files.createDirectories(settings.home().resolve(directory));
    }
    CassandraConfigWriter.write(settings);
    Process process = new ProcessBuilder(SessionLeader.prefix(command))
        .directory(settings.home().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(settings.stdoutLog().toFile())
        .start();
    new PidFile(settings.pidFile()).write(process.pid());
    return process.pid();
  }

  private void requirePortsFree() {
    int[] ports = {settings.cqlPort(), settings.storagePort(), settings.jmxPort()};
    for (int port : ports) {
      try (ServerSocket probe = new ServerSocket()) {
        probe.bind(new InetSocketAddress(LocalCassandraSettings.ADDRESS, port));
      } catch (IOException e) {
        throw new LocalCassandraException("Port " + LocalCassandraSettings.ADDRESS + ":" + port
            + " is in use by another process, so Cassandra of " + settings.home()
            + " cannot start. Stop that process or choose other ports.");
      }
    }
  }

  private static void requireExit(ProcessHandle process) {
    if (!NodeProcess.awaitExit(process, KILL_WAIT)) {
      throw new LocalCassandraException("Cassandra process " + process.pid()
          + " is still alive " + KILL_WAIT.toSeconds() + " s after SIGKILL");
    }
  }

  private String logDiagnostics() {
    return LogTail.describe(settings.systemLog(), settings.stdoutLog());
  }

  private CassandraStatus running(long pid) {
    return new CassandraStatus(CassandraStatus.State.RUNNING, pid, address());
  }

  private InetSocketAddress address() {
    return settings.cqlAddress();
  }
}
