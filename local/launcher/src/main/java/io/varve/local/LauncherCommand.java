package io.varve.local;

import io.varve.command.ExitStatus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * What the command lines of the local servers share: the syntax
 * {@code start|stop|status|kill [--option value | --flag]...}, and the one-line reports of each
 * action with their exit statuses ({@code OK} on success; for {@code status}, {@code OK} only while
 * the server runs, else {@code COMPLETED_WITH_ERRORS}).
 */
final class LauncherCommand {

  private static final List<String> ACTIONS = List.of("start", "stop", "status", "kill");

  private LauncherCommand() {}

  /** The action and the options of one command line; a flag maps to the empty string. */
  record Arguments(String action, Map<String, String> options) {

    /**
     * Parses {@code args}; {@code flags} are the options without a value.
     *
     * @throws IllegalArgumentException naming the argument that does not fit
     */
    static Arguments parse(String[] args, List<String> flags) {
      String action = null;
      Map<String, String> options = new HashMap<>();
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (ACTIONS.contains(arg) && action == null) {
          action = arg;
        } else if (flags.contains(arg)) {
          options.put(arg, "");
        } else if (arg.startsWith("--") && i + 1 < args.length) {
          options.put(arg, args[++i]);
        } else {
          throw new IllegalArgumentException("unexpected argument: " + arg);
        }
      }
      if (action == null) {
        throw new IllegalArgumentException("missing action");
      }
      return new Arguments(action, options);
    }

    /** {@code --timeout} in seconds (1..999999), or the default. */
    Duration timeout(int defaultSeconds) {
      String value = options.get("--timeout");
      return Duration.ofSeconds(value == null ? defaultSeconds
          : Long.parseLong(number("--timeout", value, "seconds, 1..999999", "[1-9][0-9]{0,5}")));
    }

    /** The options that configure the server: all but the ones this class reads. */
    Map<String, String> settingsOptions() {
      Map<String, String> rest = new HashMap<>(options);
      rest.remove("--timeout");
      rest.remove("--no-wait");
      return rest;
    }
  }

  /**
   * How a server's reports read.
   *
   * @param label the first word of every line, like {@code cassandra}
   * @param noun what the server calls itself in messages, like {@code node}
   * @param where what a running line shows after the pid, like {@code cql=127.0.0.1:9042 log=...}
   * @param log the log a stale pid file's line points to
   */
  record Reports(String label, String noun, String where, Path log) {}

  /**
   * Runs the parsed action on the server and prints its line; returns the exit status. Failures
   * of the server's lifecycle propagate as the server's exception.
   */
  static int act(Arguments arguments, Duration timeout, ManagedNode node, Reports reports, PrintStream out) {
    return switch (arguments.action()) {
      case "start" -> start(node, timeout, !arguments.options().containsKey("--no-wait"), reports, out);
      case "stop" -> stopOrKill(node, node.status(), node.stop(timeout), "stopped", reports, out);
      case "kill" -> stopOrKill(node, node.status(), node.kill(), "killed", reports, out);
      default -> status(node, reports, out);
    };
  }

  /**
   * Runs a command line and exits the JVM with its status; a failure the command line did not
   * expect exits with the status {@link ExitStatus#of} gives it, after its stack trace.
   */
  static void exit(IntSupplier commandLine) {
    int status;
    try {
      status = commandLine.getAsInt();
    } catch (RuntimeException | Error e) {
      e.printStackTrace();
      status = ExitStatus.of(e).code();
    }
    System.exit(status);
  }

  /** The value if it matches {@code pattern}; else an error naming the option and what it expects. */
  static String number(String name, String value, String expected, String pattern) {
    if (!value.matches(pattern)) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
    }
    return value;
  }

  private static int start(ManagedNode node, Duration timeout, boolean wait, Reports reports, PrintStream out) {
    long began = System.nanoTime();
    boolean wasRunning = node.status().state() == ManagedNode.State.RUNNING;
    ManagedNode.Status status = node.start();
    if (wait) {
      node.awaitReady(timeout);
    }
    String how = wasRunning ? "already running"
        : String.format("started in %.1f s", (System.nanoTime() - began) / 1e9);
    out.println(running("running", status, reports) + " (" + how + (wait ? ")" : ", not waited)"));
    return ExitStatus.OK.code();
  }

  private static int stopOrKill(ManagedNode node, ManagedNode.Status before, boolean acted, String done,
      Reports reports, PrintStream out) {
    if (acted) {
      out.println(reports.label() + ": " + done + " pid=" + before.pid());
    } else {
      out.println(reports.label() + ": not running home=" + node.home());
    }
    return ExitStatus.OK.code();
  }

  private static int status(ManagedNode node, Reports reports, PrintStream out) {
    ManagedNode.Status status = node.status();
    switch (status.state()) {
      case RUNNING -> out.println(running(node.isReady() ? "running" : "starting", status, reports));
      case STALE -> out.println(reports.label() + ": stale pid file " + node.pidFile() + " (pid " + status.pid()
          + " is not this " + reports.noun() + ") log=" + reports.log());
      default -> out.println(reports.label() + ": stopped home=" + node.home());
    }
    return (status.state() == ManagedNode.State.RUNNING ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }

  private static String running(String state, ManagedNode.Status status, Reports reports) {
    return reports.label() + ": " + state + " pid=" + status.pid() + " " + reports.where();
  }
}
