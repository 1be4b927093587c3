package io.varve.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One local DynamoDB Local server, run as its own operating-system process in its own session,
 * so it outlives the JVM that started it and a Ctrl-C of the calling shell. It listens on
 * 127.0.0.1 only: {@code local/dynamodb-dist}'s {@value #MAIN_CLASS} serves DynamoDB Local
 * with its connector bound to that address.
 *
 * <p>DynamoDB Local is a correctness stand-in for DynamoDB, not a performance peer: it answers
 * a few hundred writes per second.
 *
 * <p>The state lives on disk, in the server's home directory: any number of objects, in any
 * number of JVMs, may control the same server. {@link #start()} is serialized across processes
 * by a lock file in the home directory. A process is only ever signalled after checking that its
 * command line runs {@value #MAIN_CLASS} with this home directory.
 *
 * <p>Thread-safe.
 */
public final class LocalDynamoDb {

  /** The main class that {@code local/dynamodb-dist} builds and this launcher runs. */
  public static final String MAIN_CLASS = "io.varve.local.dynamodb.LoopbackServerRunner";

  private static final String HOME_PROPERTY = "-Dvarve.dynamodb.home=";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final LocalDynamoDbSettings settings;
  private final ManagedNode node;

  /** A handle on the server these settings describe; creates nothing and starts nothing. */
  public LocalDynamoDb(LocalDynamoDbSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.node = new ManagedNode("DynamoDB Local", settings.home(), settings.pidFile(), MAIN_CLASS,
        HOME_PROPERTY + settings.home(), LocalDynamoDbException::new, () -> LogTail.describe(settings.log()),
        this::isReady, Duration.ofMillis(100), settings.endpoint(), this::launch);
  }

  /** The process lifecycle, for the command line. */
  ManagedNode node() {
    return node;
  }

  /** The settings of this server. */
  public LocalDynamoDbSettings settings() {
    return settings;
  }

  /**
   * Starts the server unless it already runs, and returns without waiting for it to answer (see
   * {@link #awaitReady(Duration)}). Launches {@code setsid java ... LoopbackServerRunner} with
   * its output in {@code logs/stdout.log} and records the pid in {@code dynamodb.pid}. A stale
   * pid file is replaced.
   *
   * @return the status of the running server: {@link DynamoDbStatus.State#RUNNING} and its pid
   * @throws LocalDynamoDbException if the jars are not built, the port is taken by another
   *     process, or the home directory cannot be written
   */
  public DynamoDbStatus start() {
    return status(node.start());
  }

  /**
   * Waits until the server answers a {@code ListTables} request.
   *
   * @throws LocalDynamoDbException if the server is not running, exits while starting, or does
   *     not answer within the timeout; the message names {@code logs/stdout.log} and quotes its end
   */
  public void awaitReady(Duration timeout) {
    node.awaitReady(timeout);
  }

  /** Whether the server answers a {@code ListTables} request right now. */
  public boolean isReady() {
    return DynamoDbProbe.answersListTables(settings.endpoint(), PROBE_TIMEOUT);
  }

  /**
   * Stops the server: SIGTERM, then SIGKILL if it is still there after the timeout. Removes the
   * pid file. An in-memory server loses its tables. Does nothing if the server is not running.
   *
   * @return whether a running server was stopped
   */
  public boolean stop(Duration timeout) {
    return node.stop(timeout);
  }

  /**
   * Kills the server with SIGKILL, as a crash would, and leaves the pid file behind, stale.
   * Does nothing if the server is not running.
   *
   * @return whether a running server was killed
   */
  public boolean kill() {
    return node.kill();
  }

  /** The server's status from its pid file and the live processes; cheap, sends no request. */
  public DynamoDbStatus status() {
    return status(node.status());
  }

  /** The full command that runs the server, {@code java} first. */
  List<String> command() {
    Path lib = settings.libDirectory();
    if (!Files.isDirectory(lib)) {
      throw notBuilt(lib + " does not exist");
    }
    try (var runner = Files.newDirectoryStream(lib, "varve-dynamodb-dist-*.jar")) {
      if (!runner.iterator().hasNext()) {
        throw notBuilt("no varve-dynamodb-dist-*.jar in " + lib);
      }
    } catch (IOException e) {
      throw new LocalDynamoDbException("Cannot list " + lib, e);
    }
    List<String> command = new ArrayList<>(List.of(
        settings.javaExecutable().toString(),
        "-Xmx" + settings.heapSize(),
        "-XX:+ExitOnOutOfMemoryError",
        HOME_PROPERTY + settings.home(),
        "-Dvarve.dynamodb.host=" + LocalDynamoDbSettings.ADDRESS,
        // sqlite4java looks for its native library (libsqlite4java-linux-amd64-*.so) here.
        "-Dsqlite4java.library.path=" + lib,
        "-cp", lib + File.separator + "*",
        MAIN_CLASS,
        "-port", Integer.toString(settings.port()),
        "-sharedDb",
        "-disableTelemetry"));
    if (settings.persistent()) {
      command.addAll(List.of("-dbPath", settings.dataDirectory().toString()));
    } else {
      command.add("-inMemory");
    }
    return command;
  }

  private long launch() throws IOException {
    List<String> command = command();
    node.requirePortFree(LocalDynamoDbSettings.ADDRESS, settings.port(), "");
    Files.createDirectories(settings.log().getParent());
    if (settings.persistent()) {
      Files.createDirectories(settings.dataDirectory());
    }
    return node.spawn(command, settings.log());
  }

  private static LocalDynamoDbException notBuilt(String why) {
    return new LocalDynamoDbException("DynamoDB Local is not built: " + why + ". Build it with"
        + " `mvn -q -f local/pom.xml -DskipTests install` at the root of the Varve checkout.");
  }

  private DynamoDbStatus status(ManagedNode.Status status) {
    return new DynamoDbStatus(DynamoDbStatus.State.valueOf(status.state().name()), status.pid(), settings.endpoint());
  }
}
