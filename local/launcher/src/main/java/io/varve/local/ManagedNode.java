package io.varve.local;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

/**
 * The process lifecycle that every local server shares: start serialized across processes by a lock
 * file in the home directory, a pid file that is only trusted when the process it names runs the
 * server's main class with this home (see {@link NodeProcess}), readiness polling that quotes the
 * logs on failure, stop (SIGTERM, then SIGKILL) and kill. {@link LocalServer} is its public face;
 * each server supplies its {@link LocalServer.Definition}, readiness probe and launch.
 */
final class ManagedNode {

  private static final Duration KILL_WAIT = Duration.ofSeconds(30);

  /** Launches the server's process once the lock is held and no live process was found. */
  @FunctionalInterface
  interface Launcher {
    /** Starts the process and returns its pid. */
    long launch() throws IOException;
  }

  private final LocalServer.Definition server;
  private final Product product;
  private final Path home;
  private final Path pidFile;
  private final BooleanSupplier ready;
  private final Launcher launcher;

  /**
   * @param server what differs between the servers: names, files, the process's identity
   * @param ready whether the server answers right now
   * @param launcher launches the process once the start lock is held and none runs
   */
  ManagedNode(LocalServer.Definition server, BooleanSupplier ready, Launcher launcher) {
    this.server = server;
    this.product = server.product();
    this.home = server.home();
    this.pidFile = server.pidFile();
    this.ready = ready;
    this.launcher = launcher;
  }

  /** The live process of this home, if any. */
  Optional<ProcessHandle> find() {
    return NodeProcess.find(pidFile, server.mainClass(), server.homeArgument());
  }

  /**
   * Launches the server unless it runs, and returns its status: running, with its pid. Serialized
   * across processes by {@code start.lock} in the home directory, and across threads of this JVM.
   */
  LocalServerStatus start() {
    // A file lock excludes other processes only; two threads of one JVM would collide on it.
    synchronized (ManagedNode.class) {
      try {
        Files.createDirectories(home);
        try (FileChannel channel =
                FileChannel.open(
                    home.resolve("start.lock"),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.lock()) {
          Optional<ProcessHandle> running = find();
          return status(
              LocalServerStatus.State.RUNNING,
              running.isPresent() ? running.get().pid() : launcher.launch());
        }
      } catch (IOException e) {
        throw failure("Cannot start " + name() + " in " + home, e);
      }
    }
  }

  /**
   * Runs {@code command} in its own session from the home directory, with its output where {@code
   * output} says and no input, and records its pid; returns the pid.
   */
  long spawn(List<String> command, ProcessBuilder.Redirect output) throws IOException {
    Process process =
        new ProcessBuilder(SessionLeader.prefix(command))
            .directory(home.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(output)
            .start();
    new PidFile(pidFile).write(process.pid());
    return process.pid();
  }

  /** Fails with a message naming the port and what to do if another process holds it. */
  void requirePortFree(String address, int port, String what) {
    if (!Loopback.portFree(address, port)) {
      throw failure(
          "Port "
              + address
              + ":"
              + port
              + what
              + " is in use by another process, so "
              + name()
              + " of "
              + home
              + " cannot start. Stop that process or choose another port.",
          null);
    }
  }

  /**
   * Waits until the server is ready; fails as soon as its process is gone, or at the timeout,
   * quoting the logs.
   */
  void awaitReady(Duration timeout) {
    await(ready, timeout);
  }

  /** As {@link #awaitReady}, until {@code condition} holds instead of the server's readiness. */
  void await(BooleanSupplier condition, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean missing = false;
    while (!condition.getAsBoolean()) {
      // Two misses a poll apart: while a just-spawned process execs from setsid into java, its
      // /proc command line can read empty for an instant, and one miss is not an exit.
      boolean missingNow = find().isEmpty();
      if (missingNow && missing) {
        throw failure(name() + " is not running (it exited or was never started). " + logs(), null);
      }
      missing = missingNow;
      if (System.nanoTime() - deadline > 0) {
        throw failure(
            name()
                + " was not ready on "
                + server.endpoint()
                + " within "
                + timeout.toSeconds()
                + " s. "
                + logs(),
            null);
      }
      NodeProcess.pause(server.pollInterval(), product);
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
      if (!NodeProcess.awaitExit(node.get(), timeout, product)) {
        requireKilled(node.get());
      }
    }
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      throw failure("Cannot delete the pid file " + pidFile, e);
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
  LocalServerStatus status() {
    Optional<ProcessHandle> node = find();
    if (node.isPresent()) {
      return status(LocalServerStatus.State.RUNNING, node.get().pid());
    }
    OptionalLong pid = new PidFile(pidFile).read();
    if (pid.isPresent() || Files.exists(pidFile)) {
      return status(LocalServerStatus.State.STALE, pid.orElse(0));
    }
    return status(LocalServerStatus.State.STOPPED, 0);
  }

  private void requireKilled(ProcessHandle process) {
    process.destroyForcibly();
    requireExit(process);
  }

  private void requireExit(ProcessHandle process) {
    if (!NodeProcess.awaitExit(process, KILL_WAIT, product)) {
      throw failure(
          name()
              + " process "
              + process.pid()
              + " is still alive "
              + KILL_WAIT.toSeconds()
              + " s after SIGKILL",
          null);
    }
  }

  private LocalServerStatus status(LocalServerStatus.State state, long pid) {
    return new LocalServerStatus(product, state, pid, server.address());
  }

  private String name() {
    return product.displayName();
  }

  private String logs() {
    return LogTail.describe(server.logs());
  }

  private LocalServerException failure(String message, Throwable cause) {
    return new LocalServerException(product, message, cause);
  }
}
