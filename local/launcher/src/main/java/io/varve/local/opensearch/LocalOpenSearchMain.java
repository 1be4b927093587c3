package io.varve.local.opensearch;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherCommand;
import io.varve.local.Product;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Command line for the local OpenSearch, used by {@code ./varve local opensearch}:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.opensearch.LocalOpenSearchMain start|stop|status|kill [options]
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
 * <p>Prints one line per action. Exit statuses ({@link ExitStatus}, docs/exit-status.md): {@code
 * OK} on success; {@code COMPLETED_WITH_ERRORS} for {@code status} when the node does not run;
 * {@code INVALID_INPUT} for a usage error; {@code ABORTED_FATAL_ERROR} when the action fails.
 */
public final class LocalOpenSearchMain {

  private static final LauncherCommand.Syntax SYNTAX =
      new LauncherCommand.Syntax(
          Product.OPENSEARCH,
          List.of("--tests", "--no-wait"),
          "usage: LocalOpenSearchMain start|stop|status|kill"
              + " [--tests] [--varve-home DIR] [--home DIR] [--lib DIR] [--port N] [--transport-port N]"
              + " [--heap SIZE] [--java PATH] [--timeout SECONDS] [--no-wait]",
          Duration.ofSeconds(120));

  private LocalOpenSearchMain() {}

  /** Runs one action and exits the JVM with its status. */
  public static void main(String[] args) {
    LauncherCommand.exit(() -> run(args, System.out, System.err));
  }

  /** Runs one action, printing to {@code out} and {@code err}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return LauncherCommand.run(
        args,
        out,
        err,
        SYNTAX,
        options -> {
          LocalOpenSearchSettings settings = settings(options);
          return new LauncherCommand.Target(
              new LocalOpenSearch(settings),
              "endpoint="
                  + settings.endpoint()
                  + " data="
                  + settings.dataDirectory()
                  + " log="
                  + settings.systemLog(),
              settings.systemLog());
        });
  }

  private static LocalOpenSearchSettings settings(Map<String, String> options) {
    Path root = LauncherCommand.varveHome(options);
    LocalOpenSearchSettings settings =
        options.remove("--tests") != null
            ? LocalOpenSearchSettings.forTests(root)
            : LocalOpenSearchSettings.forDevelopment(root);
    // Both ports in one build: built one at a time, a swap would pass through two equal ports.
    String http = options.remove("--port");
    String transport = options.remove("--transport-port");
    LocalOpenSearchSettings.Builder ports = settings.toBuilder();
    if (http != null) {
      ports.httpPort(LauncherCommand.port("--port", http));
    }
    if (transport != null) {
      ports.transportPort(LauncherCommand.port("--transport-port", transport));
    }
    settings = ports.build();
    for (Map.Entry<String, String> option : options.entrySet()) {
      String value = option.getValue();
      LocalOpenSearchSettings.Builder next = settings.toBuilder();
      switch (option.getKey()) {
        case "--home" -> next.home(Path.of(value));
        case "--lib" -> next.libDirectory(Path.of(value));
        case "--heap" -> next.heapSize(value);
        case "--java" -> next.javaExecutable(Path.of(value));
        default -> throw new IllegalArgumentException("unknown option: " + option.getKey());
      }
      settings = next.build();
    }
    return settings;
  }
}
