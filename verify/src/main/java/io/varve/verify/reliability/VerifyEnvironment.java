package io.varve.verify.reliability;

import io.varve.local.cassandra.CommitlogSync;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local servers of a reliability run: a Cassandra of its own (home {@code
 * .varve/verify-cassandra}, CQL 39042, storage 37000, JMX 37199, commit log in batch mode so that
 * an acknowledged write is on disk) and a Varve server on a free port of 127.0.0.1 (home {@code
 * .varve/verify/server}, run from the jars {@code ./varve} builds). Never touches another instance:
 * the launcher signals only the processes of these homes.
 */
public final class VerifyEnvironment implements AutoCloseable {

  public static final int CQL_PORT = 39042;
  public static final int STORAGE_PORT = 37000;
  public static final int JMX_PORT = 37199;

  /** How long the server may take to answer after a start. */
  static final Duration SERVER_START_TIMEOUT = Duration.ofMinutes(2);

  /** How long a stop waits for the server's clean exit before SIGKILL. */
  static final Duration SERVER_STOP_TIMEOUT = Duration.ofSeconds(30);

  private final Path varveHome;
  private final Path workDir;
  private final LocalCassandra cassandra;
  private final LocalVarveServer server;
  private final boolean keep;
  private final String runId;

  public VerifyEnvironment(Path varveHome, String serverHeap, boolean keep) throws IOException {
    this.varveHome = varveHome;
    this.workDir = varveHome.resolve(".varve/verify");
    this.keep = keep;
    this.runId = Long.toString(System.currentTimeMillis() / 1000 % 100_000_000);
    this.cassandra =
        new LocalCassandra(
            LocalCassandraSettings.forDevelopment(varveHome).toBuilder()
                .home(varveHome.resolve(".varve/verify-cassandra"))
                .ports(CQL_PORT, STORAGE_PORT, JMX_PORT)
                .heapSize("2g")
                .commitlogSync(CommitlogSync.batch())
                .build());
    Path serverHome = workDir.resolve("server");
    this.server =
        new LocalVarveServer(
            LocalVarveServerSettings.forDevelopment(varveHome).toBuilder()
                .home(serverHome)
                .port(freePort())
                .heapSize(serverHeap)
                .classpath(LocalVarveServerSettings.builtClasspath(varveHome))
                .serveArgs(List.of("--config", serverHome.resolve("varve.yaml").toString()))
                .build());
  }

  /**
   * Starts Cassandra (from an empty home unless a node of this home already runs, as after {@code
   * --keep}) and the server.
   */
  public void start(Results results) throws IOException, InterruptedException {
    Files.createDirectories(workDir);
    if (!cassandra.status().isRunning()) {
      deleteTree(cassandra.settings().home());
    }
    long started = System.nanoTime();
    cassandra.start();
    cassandra.awaitReady(Duration.ofMinutes(3));
    results.put(
        "env.cassandra",
        "127.0.0.1:"
            + CQL_PORT
            + " pid="
            + cassandra.status().pid()
            + " commitlog_sync=batch home="
            + cassandra.settings().home());
    // a server left running by a run that was itself killed would answer on another port
    server.stop(SERVER_STOP_TIMEOUT);
    startServer();
    LocalVarveServerSettings settings = server.settings();
    results.put(
        "env.server",
        settings.endpoint()
            + " pid="
            + server.status().pid()
            + " heap="
            + settings.heapSize()
            + " log="
            + settings.log());
    results.put("env.start_seconds", (System.nanoTime() - started) / 1e9);
  }

  /**
   * After a phase that failed half-way: Cassandra and the server running again, for the next phase.
   */
  public void ensureRunning() throws IOException, InterruptedException {
    if (!cassandra.status().isRunning()) {
      cassandra.start();
      cassandra.awaitReady(Duration.ofMinutes(3));
    }
    if (!server.status().isRunning()) {
      startServer();
    }
  }

  /**
   * Starts the server (its log is appended to) on this run's Cassandra and waits until {@code
   * /health} answers 200; it listens on 127.0.0.1 only.
   */
  private void startServer() throws IOException {
    LocalVarveServerSettings settings = server.settings();
    Files.createDirectories(settings.home());
    Files.writeString(
        settings.home().resolve("varve.yaml"),
        "server:\n  host: 127.0.0.1\n  port: "
            + settings.port()
            + "\ncassandra:\n  contactPoints: [\"127.0.0.1:"
            + CQL_PORT
            + "\"]\n  localDatacenter: datacenter1\n");
    server.start();
    server.awaitReady(SERVER_START_TIMEOUT);
  }

  public LocalCassandra cassandra() {
    return cassandra;
  }

  public LocalVarveServer server() {
    return server;
  }

  public VarveClient client() {
    return new VarveClient(server.settings().endpoint().toString());
  }

  public Path varveHome() {
    return varveHome;
  }

  public Path workDir() {
    return workDir;
  }

  /** A namespace name unique to this run, so that runs on a kept Cassandra do not meet. */
  public String namespace(String phase) {
    return "verify_" + phase + "_" + runId;
  }

  /** Stops the server and Cassandra, unless {@code --keep}. */
  @Override
  public void close() {
    if (keep) {
      return;
    }
    server.stop(SERVER_STOP_TIMEOUT);
    cassandra.stop(Duration.ofMinutes(1));
  }

  public boolean keep() {
    return keep;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
