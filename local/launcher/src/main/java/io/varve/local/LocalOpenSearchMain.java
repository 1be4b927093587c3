package io.varve.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Command line for the local OpenSearch, used by {@code ./varve local opensearch}:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.LocalOpenSearchMain start|stop|status|kill [options]
 *
 *   --tests               the tests' node (.varve/test-opensearch, ports 19200/19300)
 *   --varve-home DIR      the Varve checkout (default: property varve.home, else found upwards
 *                         from the working directory)
 *   --home DIR            the node's directory (default: VARVE_HOME/.varve/opensearch)
 *   --lib DIR             OpenSearch's jars (default: VARVE_HOME/local/opensearch-dist/target/lib)
 *   --port N              HTTP port (default 9200)
 *   --transport-port N    transport port (default 9300)
 *   --heap SIZE           heap, like 512m (default) or 1g
 *   --java PATH           the java of a JDK 21+ (default: VARVE_OPENSEARCH_JAVA, else the
 *                         newest JDK 21+ under /usr/lib/jvm)
 *   --timeout SECONDS     how long start waits for a healthy cluster, or stop for an exit (120)
 *   --no-wait             start returns once the process is launched
 * </pre>
 *
 * <p>Prints one line per action. Exit status 0 on success (for {@code status}: the node runs),
 * 1 otherwise.
 */
public final class LocalOpenSearchMain {

  private static final List<String> ACTIONS = List.of("start", "stop", "status", "kill");
  private static final List<String> FLAGS = List.of("--tests", "--no-wait");
  private static final String USAGE = "usage: LocalOpenSearchMain start|stop|status|kill"
      + " [--tests] [--varve-home DIR] [--home DIR] [--lib DIR] [--port N] [--transport-port N]"
      + " [--heap SIZE] [--java PATH] [--timeout SECONDS] [--no-wait]";

  private LocalOpenSearchMain() {}

  /** Runs one action and exits the JVM with its status. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one action, printing to {@code out} and {@code err}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> options = new HashMap<>();
    String action;
    LocalOpenSearch node;
    Duration timeout;
    try {
      action = parse(args, options);
      timeout = Duration.ofSeconds(Long.parseLong(number("--timeout",
          options.getOrDefault("--timeout", "120"), "seconds, 1..999999", "[1-9][0-9]{0,5}")));
      node = new LocalOpenSearch(settings(options));
    } catch (IllegalArgumentException e) {
      err.println("opensearch: " + e.getMessage());
      err.println(USAGE);
      return 1;
    }
    try {
      return switch (action) {
        case "start" -> start(node, timeout, !options.containsKey("--no-wait"), out);
        case "stop" -> stopOrKill(node, "stopped", () -> node.stop(timeout), out);
        case "kill" -> stopOrKill(node, "killed", node::kill, out);
        default -> status(node, out);
      };
    } catch (LocalOpenSearchException | LocalCassandraException e) {
      // The process helpers shared with the Cassandra launcher report with the latter.
      err.println("opensearch: " + action + " failed: " + e.getMessage());
      return 1;
    }
  }

  private static int start(LocalOpenSearch node, Duration timeout, boolean wait, PrintStream out) {
    long began = System.nanoTime();
    boolean wasRunning = node.status().isRunning();
    OpenSearchStatus status = node.start();
    if (wait) {
      node.awaitReady(timeout);
    }
    String how = wasRunning ? "already running"
        : String.format("started in %.1f s", (System.nanoTime() - began) / 1e9);
    out.println(describe("running", status, node) + " (" + how + (wait ? ")" : ", not waited)"));
    return 0;
  }

  private static int stopOrKill(
      LocalOpenSearch node, String done, BooleanSupplier action, PrintStream out) {
    OpenSearchStatus before = node.status();
    if (action.getAsBoolean()) {
      out.println("opensearch: " + done + " pid=" + before.pid());
    } else {
      out.println("opensearch: not running home=" + node.settings().home());
    }
    return 0;
  }

  private static int status(LocalOpenSearch node, PrintStream out) {
    OpenSearchStatus status = node.status();
    switch (status.state()) {
      case RUNNING -> out.println(describe(node.isReady() ? "running" : "starting", status, node));
      case STALE -> out.println("opensearch: stale pid file " + node.settings().pidFile()
          + " (pid " + status.pid() + " is not this node) log=" + node.settings().systemLog());
      default -> out.println("opensearch: stopped home=" + node.settings().home());
    }
    return status.isRunning() ? 0 : 1;
  }

  private static String describe(String state, OpenSearchStatus status, LocalOpenSearch node) {
    return "opensearch: " + state + " pid=" + status.pid() + " endpoint=" + status.endpoint()
        + " data=" + node.settings().dataDirectory() + " log=" + node.settings().systemLog();
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

  private static LocalOpenSearchSettings settings(Map<String, String> options) {
    Map<String, String> rest = new HashMap<>(options);
    rest.remove("--timeout");
    rest.remove("--no-wait");
    String varveHome = rest.remove("--varve-home");
    Path root = varveHome == null ? VarveHome.locate() : Path.of(varveHome);
    LocalOpenSearchSettings settings = rest.remove("--tests") != null
        ? LocalOpenSearchSettings.forTests(root) : LocalOpenSearchSettings.forDevelopment(root);
    // Both ports at once: one at a time, a swap would pass through two equal ports.
    String http = rest.remove("--port");
    String transport = rest.remove("--transport-port");
    settings = new LocalOpenSearchSettings(settings.home(), settings.libDirectory(),
        http == null ? settings.httpPort() : port("--port", http),
        transport == null ? settings.transportPort() : port("--transport-port", transport),
        settings.heapSize(), settings.javaExecutable());
    for (Map.Entry<String, String> option : rest.entrySet()) {
      String value = option.getValue();
      settings = switch (option.getKey()) {
        case "--home" -> settings.withHome(Path.of(value));
        case "--lib" -> settings.withLibDirectory(Path.of(value));
        case "--heap" -> settings.withHeapSize(value);
        case "--java" -> settings.withJavaExecutable(Path.of(value));
        default -> throw new IllegalArgumentException("unknown option: " + option.getKey());
      };
    }
    return settings;
  }

  private static int port(String name, String value) {
    return Integer.parseInt(number(name, value, "1..65535", "[0-9]{1,9}"));
  }

  private static String number(String name, String value, String expected, String pattern) {
    if (!value.matches(pattern)) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: " + expected + ")");
    }
    return value;
  }
}
