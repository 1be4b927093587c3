package io.varve.local.cassandra;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherCommand;
import io.varve.local.Product;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Command line for the local Cassandra, used by {@code ./varve} and CI:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.cassandra.LocalCassandraMain start|stop|status|kill [options]
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
 * <p>Prints one line per action. Exit statuses ({@link ExitStatus}, docs/exit-status.md): {@code
 * OK} on success; {@code COMPLETED_WITH_ERRORS} for {@code status} when the node does not run;
 * {@code INVALID_INPUT} for a usage error; {@code ABORTED_FATAL_ERROR} when the action fails.
 */
public final class LocalCassandraMain {

  private static final LauncherCommand.Syntax SYNTAX =
      new LauncherCommand.Syntax(
          Product.CASSANDRA,
          List.of("--tests", "--no-wait"),
          "usage: LocalCassandraMain start|stop|status|kill [--tests] [--varve-home DIR]"
              + " [--home DIR] [--lib DIR] [--port N] [--storage-port N] [--jmx-port N] [--heap SIZE]"
              + " [--commitlog batch|group:5ms] [--java PATH] [--timeout SECONDS] [--no-wait]",
          Duration.ofSeconds(120));

  private LocalCassandraMain() {}

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
          LocalCassandraSettings settings = settings(options);
          return new LauncherCommand.Target(
              new LocalCassandra(settings),
              "cql="
                  + LocalCassandraSettings.ADDRESS
                  + ":"
                  + settings.cqlPort()
                  + " log="
                  + settings.systemLog(),
              settings.systemLog());
        });
  }

  private static LocalCassandraSettings settings(Map<String, String> options) {
    Path home = LauncherCommand.varveHome(options);
    LocalCassandraSettings settings =
        options.remove("--tests") != null
            ? LocalCassandraSettings.forTests(home)
            : LocalCassandraSettings.forDevelopment(home);
    // Ports are set together: validation requires three distinct ports at every step.
    settings =
        settings.withPorts(
            port(options.remove("--port"), "--port", settings.cqlPort()),
            port(options.remove("--storage-port"), "--storage-port", settings.storagePort()),
            port(options.remove("--jmx-port"), "--jmx-port", settings.jmxPort()));
    for (Map.Entry<String, String> option : options.entrySet()) {
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

  private static int port(String value, String name, int otherwise) {
    return value == null ? otherwise : LauncherCommand.port(name, value);
  }
}
