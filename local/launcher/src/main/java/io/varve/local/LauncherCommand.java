package io.varve.local;

import io.varve.command.ExitStatus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * The command line that the local servers share: the syntax {@code start|stop|status|kill [--option
 * value | --flag]...}, the one-line report of each action and its exit status ({@link ExitStatus},
 * docs/exit-status.md): {@code OK} on success; for {@code status}, {@code OK} only while the server
 * runs, else {@code COMPLETED_WITH_ERRORS}; {@code INVALID_INPUT} for a usage error; {@code
 * ABORTED_FATAL_ERROR} when the action fails. Each server's {@code main} adds its options and what
 * its lines show.
 */
public final class LauncherCommand {

  private static final List<String> ACTIONS = List.of("start", "stop", "status", "kill");

  private LauncherCommand() {}

  /**
   * What one server's command line adds to the shared one.
   *
   * @param product the server, whose label starts every line
   * @param flags the options without a value, like {@code --tests}
   * @param usage the line printed after a usage error
   * @param defaultTimeout how long {@code start} waits for the server to answer, or {@code stop}
   *     for it to exit, without {@code --timeout}
   */
  public record Syntax(
      Product product, List<String> flags, String usage, Duration defaultTimeout) {}

  /**
   * The server a command line acts on and what its lines show.
   *
   * @param server the server
   * @param where what a running line shows after the pid, like {@code cql=127.0.0.1:9042 log=...}
   * @param log the log a stale pid file's line points to
   */
  public record Target(LocalServer server, String where, Path log) {}

  /**
   * Runs one command line, printing its line to {@code out} and errors to {@code err}; returns the
   * exit status.
   *
   * @param target makes the server from the options that configure it (all but {@code --timeout}
   *     and {@code --no-wait}; a modifiable map); throws {@link IllegalArgumentException} naming an
   *     option that does not fit
   */
  public static int run(
      String[] args,
      PrintStream out,
      PrintStream err,
      Syntax syntax,
      Function<Map<String, String>, Target> target) {
    String label = syntax.product().label();
    Arguments arguments;
    Duration timeout;
    Target server;
    try {
      arguments = Arguments.parse(args, syntax.flags());
      timeout = arguments.timeout(syntax.defaultTimeout());
      server = target.apply(arguments.settingsOptions());
    } catch (IllegalArgumentException e) {
      err.println(label + ": " + e.getMessage());
      err.println(syntax.usage());
      return ExitStatus.INVALID_INPUT.code();
    }
    try {
      return act(arguments, timeout, server, out);
    } catch (LocalServerException e) {
      err.println(label + ": " + arguments.action() + " failed: " + e.getMessage());
      return ExitStatus.ABORTED_FATAL_ERROR.code();
    }
  }

  /**
   * Runs a command line and exits the JVM with its status; a failure the command line did not
   * expect exits with the status {@link ExitStatus#of} gives it, after its stack trace.
   */
  public static void exit(IntSupplier commandLine) {
    int status;
    try {
      status = commandLine.getAsInt();
    } catch (RuntimeException | Error e) {
      e.printStackTrace();
      status = ExitStatus.of(e).code();
    }
    System.exit(status);
  }

  /**
   * Removes {@code --varve-home} from the options and returns it; without it, the Varve checkout
   * that {@link VarveHome#locate()} finds.
   */
  public static Path varveHome(Map<String, String> options) {
    String varveHome = options.remove("--varve-home");
    return varveHome == null ? VarveHome.locate() : Path.of(varveHome);
  }

  /**
   * The {@code --timeout} of a command line, or the syntax's default; throws {@link
   * IllegalArgumentException} as {@link #run} reports it.
   */
  public static Duration timeout(String[] args, Syntax syntax) {
    return Arguments.parse(args, syntax.flags()).timeout(syntax.defaultTimeout());
  }

  /** The port an option names; else an error naming the option and what it expects. */
  public static int port(String name, String value) {
    return Integer.parseInt(number(name, value, "1..65535", "[0-9]{1,9}"));
  }

  private static String number(String name, String value, String expected, String pattern) {
    if (!value.matches(pattern)) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
    }
    return value;
  }

  /** The action and the options of one command line; a flag maps to the empty string. */
  private record Arguments(String action, Map<String, String> options) {

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
    Duration timeout(Duration otherwise) {
      String value = options.get("--timeout");
      return value == null
          ? otherwise
          : Duration.ofSeconds(
              Long.parseLong(number("--timeout", value, "seconds, 1..999999", "[1-9][0-9]{0,5}")));
    }

    /** The options that configure the server: all but the ones this class reads. */
    Map<String, String> settingsOptions() {
      Map<String, String> rest = new HashMap<>(options);
      rest.remove("--timeout");
      rest.remove("--no-wait");
      return rest;
    }
  }

  private static int act(Arguments arguments, Duration timeout, Target target, PrintStream out) {
    LocalServer server = target.server();
    return switch (arguments.action()) {
      case "start" -> start(target, timeout, !arguments.options().containsKey("--no-wait"), out);
      case "stop" -> stopOrKill(target, server.status(), server.stop(timeout), "stopped", out);
      case "kill" -> stopOrKill(target, server.status(), server.kill(), "killed", out);
      default -> status(target, out);
    };
  }

  private static int start(Target target, Duration timeout, boolean wait, PrintStream out) {
    LocalServer server = target.server();
    long began = System.nanoTime();
    boolean wasRunning = server.status().isRunning();
    LocalServerStatus status = server.start();
    if (wait) {
      server.awaitReady(timeout);
    }
    String how =
        wasRunning
            ? "already running"
            : String.format("started in %.1f s", (System.nanoTime() - began) / 1e9);
    out.println(running("running", status, target) + " (" + how + (wait ? ")" : ", not waited)"));
    return ExitStatus.OK.code();
  }

  private static int stopOrKill(
      Target target, LocalServerStatus before, boolean acted, String done, PrintStream out) {
    String label = target.server().product().label();
    if (acted) {
      out.println(label + ": " + done + " pid=" + before.pid());
    } else {
      out.println(label + ": not running home=" + target.server().home());
    }
    return ExitStatus.OK.code();
  }

  private static int status(Target target, PrintStream out) {
    LocalServer server = target.server();
    Product product = server.product();
    LocalServerStatus status = server.status();
    switch (status.state()) {
      case RUNNING ->
          out.println(running(server.isReady() ? "running" : "starting", status, target));
      case STALE ->
          out.println(
              product.label()
                  + ": stale pid file "
                  + server.pidFile()
                  + " (pid "
                  + status.pid()
                  + " is not this "
                  + product.noun()
                  + ") log="
                  + target.log());
      default -> out.println(product.label() + ": stopped home=" + server.home());
    }
    return (status.isRunning() ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }

  private static String running(String state, LocalServerStatus status, Target target) {
    return target.server().product().label()
        + ": "
        + state
        + " pid="
        + status.pid()
        + " "
        + target.where();
  }
}
