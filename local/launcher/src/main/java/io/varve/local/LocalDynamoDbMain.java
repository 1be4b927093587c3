package io.varve.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Command line for the local DynamoDB Local, used by {@code ./varve local dynamodb}:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.LocalDynamoDbMain start|stop|status|kill [options]
 *
 *   --varve-home DIR      the Varve checkout (default: property varve.home, else found upwards
 *                         from the working directory)
 *   --home DIR            the server's directory (default: VARVE_HOME/.varve/dynamodb)
 *   --lib DIR             DynamoDB Local's jars (default: VARVE_HOME/local/dynamodb-dist/target/lib)
 *   --port N              HTTP port (default 8000)
 *   --persistent          keep tables in HOME/data instead of in memory
 *   --heap SIZE           maximum heap, like 512m (default) or 1g
 *   --java PATH           the java to run it with
 *   --timeout SECONDS     how long start waits for an answer, or stop for an exit (60)
 *   --no-wait             start returns once the process is launched
 * </pre>
 *
 * <p>Prints one line per action. Exit status 0 on success (for {@code status}: the server runs),
 * 1 otherwise.
 */
public final class LocalDynamoDbMain {

  private static final List<String> ACTIONS = List.of("start", "stop", "status", "kill");
  private static final List<String> FLAGS = List.of("--persistent", "--no-wait");
  private static final String USAGE = "usage: LocalDynamoDbMain start|stop|status|kill"
      + " [--varve-home DIR] [--home DIR] [--lib DIR] [--port N] [--persistent] [--heap SIZE]"
      + " [--java PATH] [--timeout SECONDS] [--no-wait]";

  private LocalDynamoDbMain() {}

  /** Runs one action and exits the JVM with its status. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one action, printing to {@code out} and {@code err}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> options = new HashMap<>();
    String action;
    LocalDynamoDb server;
    Duration timeout;
    try {
      action = parse(args, options);
      timeout = Duration.ofSeconds(Long.parseLong(number("--timeout",
          options.getOrDefault("--timeout", "60"), "seconds, 1..999999", "[1-9][0-9]{0,5}")));
      server = new LocalDynamoDb(settings(options));
    } catch (IllegalArgumentException e) {
      err.println("dynamodb: " + e.getMessage());
      err.println(USAGE);
      return 1;
    }
    try {
      return switch (action) {
        case "start" -> start(server, timeout, !options.containsKey("--no-wait"), out);
        case "stop" -> stopOrKill(server, "stopped", () -> server.stop(timeout), out);
        case "kill" -> stopOrKill(server, "killed", server::kill, out);
        default -> status(server, out);
      };
    } catch (LocalDynamoDbException | LocalCassandraException e) {
      // The process helpers shared with the Cassandra launcher report with the latter.
      err.println("dynamodb: " + action + " failed: " + e.getMessage());
      return 1;
    }
  }

  private static int start(LocalDynamoDb server, Duration timeout, boolean wait, PrintStream out) {
    long began = System.nanoTime();
    boolean wasRunning = server.status().isRunning();
    DynamoDbStatus status = server.start();
    if (wait) {
      server.awaitReady(timeout);
    }
    String how = wasRunning ? "already running"
        : String.format("started in %.1f s", (System.nanoTime() - began) / 1e9);
    out.println(describe("running", status, server) + " (" + how + (wait ? ")" : ", not waited)"));
    return 0;
  }

  private static int stopOrKill(
      LocalDynamoDb server, String done, BooleanSupplier action, PrintStream out) {
    DynamoDbStatus before = server.status();
    if (action.getAsBoolean()) {
      out.println("dynamodb: " + done + " pid=" + before.pid());
    } else {
      out.println("dynamodb: not running home=" + server.settings().home());
    }
    return 0;
  }

  private static int status(LocalDynamoDb server, PrintStream out) {
    DynamoDbStatus status = server.status();
    switch (status.state()) {
      case RUNNING -> out.println(describe(server.isReady() ? "running" : "starting", status,
          server));
      case STALE -> out.println("dynamodb: stale pid file " + server.settings().pidFile()
          + " (pid " + status.pid() + " is not this server) log=" + server.settings().log());
      default -> out.println("dynamodb: stopped home=" + server.settings().home());
    }
    return status.isRunning() ? 0 : 1;
  }

  private static String describe(String state, DynamoDbStatus status, LocalDynamoDb server) {
    return "dynamodb: " + state + " pid=" + status.pid() + " endpoint=" + status.endpoint()
        + (server.settings().persistent() ? " data=" + server.settings().dataDirectory()
            : " in-memory")
        + " log=" + server.settings().log();
  }

  private static String parse(String[] args, Map<String, String> options) {
    String action = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (ACTIONS.contains(arg) && action == null) {
        action = arg;
      } else if (FLAGS.contains(arg)) {
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
    return action;
  }

  private static LocalDynamoDbSettings settings(Map<String, String> options) {
    Map<String, String> rest = new HashMap<>(options);
    rest.remove("--timeout");
    rest.remove("--no-wait");
    String varveHome = rest.remove("--varve-home");
    LocalDynamoDbSettings settings = LocalDynamoDbSettings.forDevelopment(
        varveHome == null ? VarveHome.locate() : Path.of(varveHome));
    for (Map.Entry<String, String> option : rest.entrySet()) {
      String value = option.getValue();
      settings = switch (option.getKey()) {
        case "--home" -> settings.withHome(Path.of(value));
        case "--lib" -> settings.withLibDirectory(Path.of(value));
        case "--port" -> settings.withPort(
            Integer.parseInt(number("--port", value, "1..65535", "[0-9]{1,9}")));
        case "--persistent" -> settings.withPersistent(true);
        case "--heap" -> settings.withHeapSize(value);
        case "--java" -> settings.withJavaExecutable(Path.of(value));
        default -> throw new IllegalArgumentException("unknown option: " + option.getKey());
      };
    }
    return settings;
  }

  private static String number(String name, String value, String expected, String pattern) {
    if (!value.matches(pattern)) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
    }
    return value;
  }
}
