package io.varve.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Command line for the local Cassandra, used by {@code ./varve} and CI:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.LocalCassandraMain start|stop|status|kill [options]
 *
 *   --tests               the integration tests' instance (ports 19042/17000/17199)
 *   --varve-home DIR      the Varve checkout (default: property varve.home, else found upwards
 *                         from the working directory)
 *   --home DIR            the node's directory (default: VARVE_HOME/.varve/cassandra)
 *   --lib DIR             the Cassandra jars (default: VARVE_HOME/local/cassandra-dist/target/lib)
 *   --port N              CQL port            --storage-port N, --jmx-port N
 *   --heap SIZE           like 768m or 1g     --java PATH (a Java 17 java)
 *   --commitlog MODE      batch (default) or group:5ms
 *   --timeout SECONDS     how long start waits for CQL, or stop for a clean exit (120)
 *   --no-wait             start returns once the process is launched
 * </pre>
 *
 * <p>Prints one line per action. Exit status 0 on success (for {@code status}: the node runs),
 * 1 otherwise.
 */
public final class LocalCassandraMain {

  private static final List<String> ACTIONS = List.of("start", "stop", "status", "kill");
  private static final List<String> FLAGS = List.of("--tests", "--no-wait");

  private LocalCassandraMain() {}

  /** Runs one action and exits the JVM with its status. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one action, printing to {@code out} and {@code err}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> options = new HashMap<>();
    String action;
    LocalCassandra node;
    try {
      action = parse(args, options);
      node = new LocalCassandra(settings(options));
    } catch (IllegalArgumentException e) {
      err.println("cassandra: " + e.getMessage());
      err.println("usage: LocalCassandraMain start|stop|status|kill [--tests] [--varve-home DIR]"
          + " [--home DIR] [--lib DIR] [--port N] [--storage-port N] [--jmx-port N] [--heap SIZE]"
          + " [--commitlog batch|group:5ms] [--java PATH] [--timeout SECONDS] [--no-wait]");
      return 1;
    }
    Duration timeout = Duration.ofSeconds(Long.parseLong(options.getOrDefault("--timeout", "120")));
    try {
      return switch (action) {
        case "start" -> start(node, timeout, !options.containsKey("--no-wait"), out);
        case "stop" -> stopOrKill(node, "stopped", () -> node.stop(timeout), out);
        case "kill" -> stopOrKill(node, "killed", node::kill, out);
        default -> status(node, out);
      };
    } catch (LocalCassandraException e) {
      err.println("cassandra: " + action + " failed: " + e.getMessage());
      return 1;
    }
  }

  private static int start(LocalCassandra node, Duration timeout, boolean wait, PrintStream out) {
    long began = System.nanoTime();
    boolean wasRunning = node.status().isRunning();
    CassandraStatus status = node.start();
    if (wait) {
      node.awaitReady(timeout);
    }
    String how = wasRunning ? "already running"
        : String.format("started in %.1f s", (System.nanoTime() - began) / 1e9);
    out.println(describe("running", status, node) + " (" + how + (wait ? ")" : ", not waited)"));
    return 0;
  }

  private static int stopOrKill(
      LocalCassandra node, String done, java.util.function.BooleanSupplier action, PrintStream out) {
    CassandraStatus before = node.status();
    if (action.getAsBoolean()) {
      out.println("cassandra: " + done + " pid=" + before.pid());
    } else {
      out.println("cassandra: not running home=" + node.settings().home());
    }
    return 0;
  }

  private static int status(LocalCassandra node, PrintStream out) {
    CassandraStatus status = node.status();
    switch (status.state()) {
      case RUNNING -> out.println(describe(node.isReady() ? "running" : "starting", status, node));
      case STALE -> out.println("cassandra: stale pid file " + node.settings().pidFile()
          + " (pid " + status.pid() + " is not this node) log=" + node.settings().systemLog());
      default -> out.println("cassandra: stopped home=" + node.settings().home());
    }
    return status.isRunning() ? 0 : 1;
  }

  private static String describe(String state, CassandraStatus status, LocalCassandra node) {
    return "cassandra: " + state + " pid=" + status.pid() + " cql="
        + LocalCassandraSettings.ADDRESS + ":" + status.cqlAddress().getPort()
        + " log=" + node.settings().systemLog();
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

  private static LocalCassandraSettings settings(Map<String, String> options) {
    Map<String, String> rest = new HashMap<>(options);
    String varveHome = rest.remove("--varve-home");
    Path home = varveHome == null ? VarveHome.locate() : Path.of(varveHome);
    LocalCassandraSettings settings = rest.remove("--tests") != null
        ? LocalCassandraSettings.forTests(home) : LocalCassandraSettings.forDevelopment(home);
    rest.remove("--no-wait");
    String timeout = rest.remove("--timeout");
    if (timeout != null && !timeout.matches("[1-9][0-9]{0,5}")) {
      throw new IllegalArgumentException("--timeout: " + timeout + " (expected: seconds, 1..999999)");
    }
    // Ports are set together: validation requires three distinct ports at every step.
    settings = settings.withPorts(
        port(rest.remove("--port"), settings.cqlPort()),
        port(rest.remove("--storage-port"), settings.storagePort()),
        port(rest.remove("--jmx-port"), settings.jmxPort()));
    for (Map.Entry<String, String> option : rest.entrySet()) {
      settings = with(settings, option.getKey(), option.getValue());
    }
    return settings;
  }

  private static LocalCassandraSettings with(LocalCassandraSettings s, String name, String value) {
    return switch (name) {
      case "--home" -> s.withHome(Path.of(value));
      case "--lib" -> s.withLibDirectory(Path.of(value));
      case "--heap" -> s.withHeapSize(value);
      case "--commitlog" -> s.withCommitlogSync(CommitlogSync.parse(value));
      case "--java" -> s.withJavaExecutable(Path.of(value));
      default -> throw new IllegalArgumentException("unknown option: " + name);
    };
  }

  private static int port(String value, int otherwise) {
    if (value == null) {
      return otherwise;
    }
    if (!value.matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("port: " + value + " (expected: 1..65535)");
    }
    return Integer.parseInt(value);
  }
}
