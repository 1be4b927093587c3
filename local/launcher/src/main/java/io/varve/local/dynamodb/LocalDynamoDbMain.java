package io.varve.local.dynamodb;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherCommand;
import io.varve.local.Product;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Command line for the local DynamoDB Local, used by {@code ./varve local dynamodb}:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.dynamodb.LocalDynamoDbMain start|stop|status|kill [options]
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
 * <p>Prints one line per action. Exit statuses ({@link ExitStatus}, docs/exit-status.md): {@code
 * OK} on success; {@code COMPLETED_WITH_ERRORS} for {@code status} when the server does not run;
 * {@code INVALID_INPUT} for a usage error; {@code ABORTED_FATAL_ERROR} when the action fails.
 */
public final class LocalDynamoDbMain {

  private static final LauncherCommand.Syntax SYNTAX =
      new LauncherCommand.Syntax(
          Product.DYNAMODB,
          List.of("--persistent", "--no-wait"),
          "usage: LocalDynamoDbMain start|stop|status|kill"
              + " [--varve-home DIR] [--home DIR] [--lib DIR] [--port N] [--persistent] [--heap SIZE]"
              + " [--java PATH] [--timeout SECONDS] [--no-wait]",
          Duration.ofSeconds(60));

  private LocalDynamoDbMain() {}

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
          LocalDynamoDbSettings settings = settings(options);
          return new LauncherCommand.Target(
              new LocalDynamoDb(settings),
              "endpoint="
                  + settings.endpoint()
                  + (settings.persistent() ? " data=" + settings.dataDirectory() : " in-memory")
                  + " log="
                  + settings.log(),
              settings.log());
        });
  }

  private static LocalDynamoDbSettings settings(Map<String, String> options) {
    LocalDynamoDbSettings settings =
        LocalDynamoDbSettings.forDevelopment(LauncherCommand.varveHome(options));
    for (Map.Entry<String, String> option : options.entrySet()) {
      String value = option.getValue();
      LocalDynamoDbSettings.Builder next = settings.toBuilder();
      switch (option.getKey()) {
        case "--home" -> next.home(Path.of(value));
        case "--lib" -> next.libDirectory(Path.of(value));
        case "--port" -> next.port(LauncherCommand.port("--port", value));
        case "--persistent" -> next.persistent(true);
        case "--heap" -> next.heapSize(value);
        case "--java" -> next.javaExecutable(Path.of(value));
        default -> throw new IllegalArgumentException("unknown option: " + option.getKey());
      }
      settings = next.build();
    }
    return settings;
  }
}
