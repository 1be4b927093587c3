package io.varve.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * One local server (see {@link Product}), run as its own operating-system process in its own
 * session, so that it outlives the JVM that started it and a Ctrl-C of the calling shell.
 *
 * <p>The state lives on disk, in the server's home directory: any number of objects, in any number
 * of JVMs, may control the same server. {@link #start()} is serialized across processes by a lock
 * file in the home directory. A process is only ever signalled after checking that its command line
 * runs the server's main class with this home directory, so a reused pid is never killed.
 *
 * <p>Each server's class says what it writes and launches, and how it tells that the server
 * answers; the lifecycle is the same for all. Thread-safe.
 */
public abstract class LocalServer {

  /**
   * What differs between the servers' lifecycles.
   *
   * @param product which server
   * @param home the server's own directory
   * @param pidFile the file that records the running process's pid
   * @param mainClass the main class on the process's command line
   * @param homeArgument the argument of that command line that ties the process to {@code home}
   * @param logs the logs a failure quotes, the server's main log first
   * @param pollInterval how often {@link #awaitReady(Duration)} asks whether the server answers
   * @param address where the server serves its clients
   * @param endpoint how messages name that address
   */
  public record Definition(
      Product product,
      Path home,
      Path pidFile,
      String mainClass,
      String homeArgument,
      List<Path> logs,
      Duration pollInterval,
      InetSocketAddress address,
      String endpoint) {

    /** Checks that nothing is missing. */
    public Definition {
      Objects.requireNonNull(product, "product");
      Objects.requireNonNull(home, "home");
      Objects.requireNonNull(pidFile, "pidFile");
      Objects.requireNonNull(mainClass, "mainClass");
      Objects.requireNonNull(homeArgument, "homeArgument");
      logs = List.copyOf(logs);
      if (logs.isEmpty()) {
        throw new IllegalArgumentException("logs: [] (expected: at least the server's main log)");
      }
      Objects.requireNonNull(pollInterval, "pollInterval");
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(endpoint, "endpoint");
    }
  }

  private final Definition definition;
  private final ManagedNode node;

  /** A handle on the server; creates nothing and starts nothing. */
  protected LocalServer(Definition definition) {
    this.definition = Objects.requireNonNull(definition, "definition");
    this.node = new ManagedNode(definition, this::isReady, this::launch);
  }

  /** Which server this is. */
  public final Product product() {
    return definition.product();
  }

  /** The server's home directory. */
  public final Path home() {
    return definition.home();
  }

  /** The file that records the running process's pid, like {@code <home>/cassandra.pid}. */
  public final Path pidFile() {
    return definition.pidFile();
  }

  /**
   * Starts the server unless it already runs, and returns without waiting for it to answer (see
   * {@link #awaitReady(Duration)}). A stale pid file is replaced.
   *
   * @return the status of the running server: {@link LocalServerStatus.State#RUNNING} and its pid
   * @throws LocalServerException if the jars are not built, a port is taken by another process, the
   *     server's Java is not usable, or the home directory cannot be written
   */
  public final LocalServerStatus start() {
    return node.start();
  }

  /**
   * Waits until the server answers ({@link #isReady()}).
   *
   * @throws LocalServerException if the server is not running, exits while starting, or does not
   *     answer within the timeout; the message names its logs and quotes their end
   */
  public final void awaitReady(Duration timeout) {
    node.awaitReady(timeout);
  }

  /**
   * Waits until {@code condition} holds, as {@link #awaitReady(Duration)} waits for readiness: for
   * a server whose stages of starting differ from readiness (such as a node that has joined its
   * cluster but cannot yet serve every client).
   *
   * @throws LocalServerException as {@link #awaitReady(Duration)}
   */
  protected final void await(BooleanSupplier condition, Duration timeout) {
    node.await(condition, timeout);
  }

  /** Whether the server answers its clients right now. */
  public abstract boolean isReady();

  /**
   * Stops the server: SIGTERM, so that it closes cleanly, then SIGKILL if it is still there after
   * the timeout. Removes the pid file. Does nothing if the server is not running.
   *
   * @return whether a running server was stopped
   * @throws LocalServerException if the pid file cannot be removed or the process outlives SIGKILL
   */
  public final boolean stop(Duration timeout) {
    return node.stop(timeout);
  }

  /**
   * Kills the server with SIGKILL, as a crash would, and waits until it is gone. The pid file is
   * left behind, stale, as after a real crash. Does nothing if the server is not running.
   *
   * @return whether a running server was killed
   */
  public final boolean kill() {
    return node.kill();
  }

  /** The server's status from its pid file and the live processes; cheap, sends no request. */
  public final LocalServerStatus status() {
    return node.status();
  }

  /**
   * Writes what the server needs and launches its process with {@link #spawn}; called by {@link
   * #start()} with the start lock held, when no process of this home runs.
   *
   * @return the pid of the launched process
   */
  protected abstract long launch() throws IOException;

  /** Fails with a message naming the port and what to do if another process holds it. */
  protected final void requirePortFree(String address, int port, String what) {
    node.requirePortFree(address, port, what);
  }

  /**
   * Runs {@code command} in its own session from the home directory, with its output in {@code
   * stdoutLog} (truncated first) and no input, and records its pid; returns the pid.
   */
  protected final long spawn(List<String> command, Path stdoutLog) throws IOException {
    return node.spawn(command, ProcessBuilder.Redirect.to(stdoutLog.toFile()));
  }

  /** As {@link #spawn(List, Path)}, with the output sent where {@code output} says. */
  protected final long spawn(List<String> command, ProcessBuilder.Redirect output)
      throws IOException {
    return node.spawn(command, output);
  }

  /**
   * Fails, saying how to build it, unless {@code lib} holds the runner jar that a {@code
   * local/*-dist} module builds beside the server's jars.
   *
   * @param runnerJar the jar's name pattern, like {@code varve-opensearch-dist-*.jar}
   */
  protected final void requireBuilt(Path lib, String runnerJar) {
    if (!Files.isDirectory(lib)) {
      throw notBuilt(lib + " does not exist");
    }
    try (var runner = Files.newDirectoryStream(lib, runnerJar)) {
      if (!runner.iterator().hasNext()) {
        throw notBuilt("no " + runnerJar + " in " + lib);
      }
    } catch (IOException e) {
      throw new LocalServerException(product(), "Cannot list " + lib, e);
    }
  }

  private LocalServerException notBuilt(String why) {
    return new LocalServerException(
        product(),
        product().displayName()
            + " is not built: "
            + why
            + ". Build it with `mvn -q -f local/pom.xml -DskipTests install` at the root of the Varve checkout.");
  }
}
