package io.varve.local;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

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
  private static final Duration KILL_WAIT = Duration.ofSeconds(30);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final LocalDynamoDbSettings settings;

  /** A handle on the server these settings describe; creates nothing and starts nothing. */
  public LocalDynamoDb(LocalDynamoDbSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
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
    // A file lock excludes other processes only; two threads of one JVM would collide on it.
    synchronized (LocalDynamoDb.class) {
      try {
        Files.createDirectories(settings.home());
        try (FileChannel channel = FileChannel.open(settings.home().resolve("start.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          Optional<ProcessHandle> running = find();
          return running(running.isPresent() ? running.get().pid() : launch());
        }
      } catch (IOException e) {
        throw new LocalDynamoDbException("Cannot start DynamoDB Local in " + settings.home(), e);
      }
    }
  }

  /**
   * Waits until the server answers a {@code ListTables} request.
   *
   * @throws LocalDynamoDbException if the server is not running, exits while starting, or does
   *     not answer within the timeout; the message names {@code logs/stdout.log} and quotes its end
   */
  public void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isReady()) {
      if (find().isEmpty()) {
        throw new LocalDynamoDbException("DynamoDB Local is not running (it exited or was never"
            + " started). " + LogTail.describe(settings.log()));
      }
      if (System.nanoTime() - deadline > 0) {
        throw new LocalDynamoDbException("DynamoDB Local did not answer on "
            + settings.endpoint() + " within " + timeout.toSeconds() + " s. "
            + LogTail.describe(settings.log()));
      }
      NodeProcess.pause(Duration.ofMillis(100));
    }
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
    Optional<ProcessHandle> server = find();
    if (server.isPresent()) {
      server.get().destroy();
      if (!NodeProcess.awaitExit(server.get(), timeout)) {
        server.get().destroyForcibly();
        requireExit(server.get());
      }
    }
    try {
      Files.deleteIfExists(settings.pidFile());
    } catch (IOException e) {
      throw new LocalDynamoDbException("Cannot delete the pid file " + settings.pidFile(), e);
    }
    return server.isPresent();
  }

  /**
   * Kills the server with SIGKILL, as a crash would, and leaves the pid file behind, stale.
   * Does nothing if the server is not running.
   *
   * @return whether a running server was killed
   */
  public boolean kill() {
    Optional<ProcessHandle> server = find();
    server.ifPresent(process -> {
      process.destroyForcibly();
      requireExit(process);
    });
    return server.isPresent();
  }

  /** The server's status from its pid file and the live processes; cheap, sends no request. */
  public DynamoDbStatus status() {
    Optional<ProcessHandle> server = find();
    if (server.isPresent()) {
      return running(server.get().pid());
    }
    OptionalLong pid = new PidFile(settings.pidFile()).read();
    if (pid.isPresent() || Files.exists(settings.pidFile())) {
      return new DynamoDbStatus(DynamoDbStatus.State.STALE, pid.orElse(0), settings.endpoint());
    }
    return new DynamoDbStatus(DynamoDbStatus.State.STOPPED, 0, settings.endpoint());
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
    requirePortFree();
    Files.createDirectories(settings.log().getParent());
    if (settings.persistent()) {
      Files.createDirectories(settings.dataDirectory());
    }
    Process process = new ProcessBuilder(SessionLeader.prefix(command))
        .directory(settings.home().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(settings.log().toFile())
        .start();
    new PidFile(settings.pidFile()).write(process.pid());
    return process.pid();
  }

  private Optional<ProcessHandle> find() {
    return NodeProcess.find(settings.pidFile(), MAIN_CLASS, HOME_PROPERTY + settings.home());
  }

  private void requirePortFree() {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(LocalDynamoDbSettings.ADDRESS, settings.port()));
    } catch (IOException e) {
      throw new LocalDynamoDbException("Port " + LocalDynamoDbSettings.ADDRESS + ":"
          + settings.port() + " is in use by another process, so DynamoDB Local of "
          + settings.home() + " cannot start. Stop that process or choose another port.");
    }
  }

  private static LocalDynamoDbException notBuilt(String why) {
    return new LocalDynamoDbException("DynamoDB Local is not built: " + why + ". Build it with"
        + " `mvn -q -f local/pom.xml -DskipTests install` at the root of the Varve checkout.");
  }

  private static void requireExit(ProcessHandle process) {
    if (!NodeProcess.awaitExit(process, KILL_WAIT)) {
      throw new LocalDynamoDbException("DynamoDB Local process " + process.pid()
          + " is still alive " + KILL_WAIT.toSeconds() + " s after SIGKILL");
    }
  }

  private DynamoDbStatus running(long pid) {
    return new DynamoDbStatus(DynamoDbStatus.State.RUNNING, pid, settings.endpoint());
  }
}
