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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The process lifecycle that every local server (Cassandra, DynamoDB Local, OpenSearch) shares:
 * start serialized across processes by a lock file in the home directory, a pid file that is only
 * trusted when the process it names runs the server's main class with this home (see
 * {@link NodeProcess}), readiness polling that quotes the logs on failure, stop (SIGTERM, then
 * SIGKILL) and kill. Each server supplies what differs: its command and files, its readiness
 * probe, and the exception type its callers catch.
 */
final class ManagedNode {

  private static final Duration KILL_WAIT = Duration.ofSeconds(30);

  /** What the pid file says, checked against the live processes. */
  enum State { RUNNING, STOPPED, STALE }

  /** The state and the pid of the pid file (0 when stopped). */
  record Status(State state, long pid) {}

  /** Launches the server's process once the lock is held and no live process was found. */
  @FunctionalInterface
  interface Launcher {
    /** Starts the process and returns its pid. */
    long launch() throws IOException;
  }

  private final String name;
  private final Path home;
  private final Path pidFile;
  private final String mainClass;
  private final String homeArgument;
  private final BiFunction<String, Throwable, RuntimeException> failure;
  private final Supplier<String> logs;
  private final BooleanSupplier ready;
  private final Duration pollInterval;
  private final Object endpoint;
  private final Launcher launcher;

  /**
   * @param name how messages name the server, like {@code "Cassandra"}
   * @param homeArgument the argument of the command line that ties a process to {@code home}
   * @param failure makes the server's exception from a message and a cause (may be null)
   * @param logs names the server's logs and quotes their end, for failure messages
   * @param ready whether the server answers right now
   * @param endpoint where the server answers, for messages
   * @param launcher launches the process once the start lock is held and none runs
   */
  ManagedNode(String name, Path home, Path pidFile, String mainClass, String homeArgument,
      BiFunction<String, Throwable, RuntimeException> failure, Supplier<String> logs,
      BooleanSupplier ready, Duration pollInterval, Object endpoint, Launcher launcher) {
    this.name = name;
    this.home = home;
    this.pidFile = pidFile;
    this.mainClass = mainClass;
    this.homeArgument = homeArgument;
    this.failure = failure;
    this.logs = logs;
    this.ready = ready;
    this.pollInterval = pollInterval;
    this.endpoint = endpoint;
    this.launcher = launcher;
  }

  /** The server's home directory. */
  Path home() {
    return home;
  }

  /** The server's pid file. */
  Path pidFile() {
    return pidFile;
  }

  /** Whether the server answers right now. */
  boolean isReady() {
    return ready.getAsBoolean();
  }

  /** The live process of this home, if any. */
  Optional<ProcessHandle> find() {
    return NodeProcess.find(pidFile, mainClass, homeArgument);
  }

  /**
   * Launches the server unless it runs, and returns its status: running, with its pid. Serialized
   * across processes by {@code start.lock} in the home directory, and across threads of this JVM.
   */
  Status start() {
    // A file lock excludes other processes only; two threads of one JVM would collide on it.
    synchronized (ManagedNode.class) {
      try {
        Files.createDirectories(home);
        try (FileChannel channel = FileChannel.open(home.resolve("start.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          Optional<ProcessHandle> running = find();
          return new Status(State.RUNNING, running.isPresent() ? running.get().pid() : launcher.launch());
        }
      } catch (IOException e) {
        throw failure.apply("Cannot start " + name + " in " + home, e);
      }
    }
  }

  /**
   * Runs {@code command} in its own session from the home directory, with its output in
   * {@code stdoutLog} and no input, and records its pid; returns the pid.
   */
  long spawn(List<String> command, Path stdoutLog) throws IOException {
    Process process = new ProcessBuilder(SessionLeader.prefix(command))
        .directory(home.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(stdoutLog.toFile())
        .start();
    new PidFile(pidFile).write(process.pid());
    return process.pid();
  }

  /** Fails with a message naming the port and what to do if another process holds it. */
  void requirePortFree(String address, int port, String what) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(address, port));
    } catch (IOException e) {
      throw failure.apply("Port " + address + ":" + port + what + " is in use by another process, so " + name
          + " of " + home + " cannot start. Stop that process or choose another port.", null);
    }
  }

  /**
   * Waits until the server is ready; fails as soon as its process is gone, or at the timeout,
   * quoting the logs.
   */
  void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.getAsBoolean()) {
      if (find().isEmpty()) {
        throw failure.apply(name + " is not running (it exited or was never started). " + logs.get(), null);
      }
      if (System.nanoTime() - deadline > 0) {
        throw failure.apply(name + " was not ready on " + endpoint + " within " + timeout.toSeconds() + " s. "
            + logs.get(), null);
      }
      NodeProcess.pause(pollInterval);
    }
  }

  /**
   * SIGTERM, then SIGKILL if the process is still there after the timeout; removes the pid file.
   * Returns whether a running server was stopped.
   */
  boolean stop(Duration timeout) {
    Optional<ProcessHandle> node = find();
    if (node.isPresent()) {
      node.get().destroy();
      if (!NodeProcess.awaitExit(node.get(), timeout)) {
        requireKilled(node.get());
      }
    }
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      throw failure.apply("Cannot delete the pid file " + pidFile, e);
    }
    return node.isPresent();
  }

  /** SIGKILL, as a crash would, leaving the pid file behind; returns whether one was running. */
  boolean kill() {
    Optional<ProcessHandle> node = find();
    node.ifPresent(this::requireKilled);
    return node.isPresent();
  }

  /** The pid file's state, checked against the live processes; sends no request. */
  Status status() {
    Optional<ProcessHandle> node = find();
    if (node.isPresent()) {
      return new Status(State.RUNNING, node.get().pid());
    }
    OptionalLong pid = new PidFile(pidFile).read();
    if (pid.isPresent() || Files.exists(pidFile)) {
      return new Status(State.STALE, pid.orElse(0));
    }
    return new Status(State.STOPPED, 0);
  }

  private void requireKilled(ProcessHandle process) {
    process.destroyForcibly();
    requireExit(process);
  }

  private void requireExit(ProcessHandle process) {
    if (!NodeProcess.awaitExit(process, KILL_WAIT)) {
      throw failure.apply(name + " process " + process.pid() + " is still alive " + KILL_WAIT.toSeconds()
          + " s after SIGKILL", null);
    }
  }
}
