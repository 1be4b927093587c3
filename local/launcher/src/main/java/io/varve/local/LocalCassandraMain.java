package io.varve.local;

import io.varve.command.ExitStatus;
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
 * <p>Prints one line per action. Exit statuses ({@link ExitStatus}, docs/exit-status.md):
 * {@code OK} on success; {@code COMPLETED_WITH_ERRORS} for {@code status} when the node does not
 * run; {@code INVALID_INPUT} for a usage error; {@code ABORTED_FATAL_ERROR} when the action fails.
 */
public final class LocalCassandraMain {

  private static final List<String> FLAGS = List.of("--tests", "--no-wait");

  private LocalCassandraMain() {}

  /** Runs one action and exits the JVM with its status. */
  public static void main(String[] args) {
    LauncherCommand.exit(() -> run(args, System.out, System.err));
  }

  /** Runs one action, printing to {@code out} and {@code err}; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    LauncherCommand.Arguments arguments;
    Duration timeout;
    LocalCassandra node;
    try {
      arguments = LauncherCommand.Arguments.parse(args, FLAGS);
      timeout = arguments.timeout(120);
      node = new LocalCassandra(settings(arguments.settingsOptions()));
    } catch (IllegalArgumentException e) {
      err.println("cassandra: " + e.getMessage());
      err.println("usage: LocalCassandraMain start|stop|status|kill [--tests] [--varve-home DIR]"
          + " [--home DIR] [--lib DIR] [--port N] [--storage-port N] [--jmx-port N] [--heap SIZE]"
          + " [--commitlog batch|group:5ms] [--java PATH] [--timeout SECONDS] [--no-wait]");
      return ExitStatus.INVALID_INPUT.code();
    }
    LocalCassandraSettings settings = node.settings();
    LauncherCommand.Reports reports = new LauncherCommand.Reports("cassandra", "node",
        "cql=" + LocalCassandraSettings.ADDRESS + ":" + settings.cqlPort() + " log=" + settings.systemLog(),
        settings.systemLog());
    try {
      return LauncherCommand.act(arguments, timeout, node.node(), reports, out);
    } catch (LocalCassandraException e) {
      err.println("cassandra: " + arguments.action() + " failed: " + e.getMessage());
      return ExitStatus.ABORTED_FATAL_ERROR.code();
    }
  }

  private static LocalCassandraSettings settings(Map<String, String> options) {
    Map<String, String> rest = new HashMap<>(options);
    String varveHome = rest.remove("--varve-home");
    Path home = varveHome == null ? VarveHome.locate() : Path.of(varveHome);
    LocalCassandraSettings settings = rest.remove("--tests") != null
        ? LocalCassandraSettings.forTests(home) : LocalCassandraSettings.forDevelopment(home);
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
