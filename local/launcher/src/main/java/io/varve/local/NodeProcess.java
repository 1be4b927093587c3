package io.varve.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Finds the operating-system process of a local server and tells whether it has exited. A pid alone
 * is never trusted: pids are reused, so a process counts as the server only if its command line
 * runs the server's main class with this very home directory.
 */
final class NodeProcess {

  private NodeProcess() {}

  /**
   * The live process named by a pid file whose arguments hold both the main class and the argument
   * that ties it to one home directory, if any.
   */
  static Optional<ProcessHandle> find(Path pidFile, String mainClass, String homeArgument) {
    OptionalLong pid = new PidFile(pidFile).read();
    if (pid.isEmpty()) {
      return Optional.empty();
    }
    return ProcessHandle.of(pid.getAsLong())
        .filter(process -> runs(process, mainClass, homeArgument));
  }

  private static boolean runs(ProcessHandle process, String mainClass, String homeArgument) {
    if (hasExited(process)) {
      return false;
    }
    List<String> arguments = arguments(process);
    return arguments.contains(mainClass) && arguments.contains(homeArgument);
  }

  /**
   * The process's command line. The JDK gives no arguments for a command line longer than 4 KiB, as
   * a server's with a classpath of a hundred jars is, so on Linux they are read from {@code /proc}
   * in full.
   */
  private static List<String> arguments(ProcessHandle process) {
    Optional<String[]> known = process.info().arguments();
    if (known.isPresent()) {
      return List.of(known.get());
    }
    try {
      byte[] cmdline =
          Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
      return List.of(new String(cmdline, StandardCharsets.UTF_8).split("\0"));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * Whether the process is gone. A zombie counts as gone once its last thread has exited: after
   * this launcher's JVM has exited, the node's parent is an init that may be slow to reap it, and
   * {@link ProcessHandle#isAlive()} says true for a zombie. Until its last thread has exited, a
   * zombie thread-group leader still holds the node's sockets and files.
   */
  static boolean hasExited(ProcessHandle process) {
    if (!process.isAlive()) {
      return true;
    }
    Path proc = Path.of("/proc", Long.toString(process.pid()));
    try (Stream<Path> threads = Files.list(proc.resolve("task"))) {
      String stat = Files.readString(proc.resolve("stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return (state == 'Z' || state == 'X') && threads.count() <= 1;
    } catch (IOException | RuntimeException e) {
      return !process.isAlive();
    }
  }

  /** Waits until the process is gone; false if it is still there after the timeout. */
  static boolean awaitExit(ProcessHandle process, Duration timeout, Product product) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!hasExited(process)) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      pause(Duration.ofMillis(100), product);
    }
    return true;
  }

  /**
   * Sleeps; an interrupt fails with the product's exception, keeping the thread's interrupt flag.
   */
  static void pause(Duration duration, Product product) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalServerException(
          product, "Interrupted while waiting for a local server process", e);
    }
  }
}
