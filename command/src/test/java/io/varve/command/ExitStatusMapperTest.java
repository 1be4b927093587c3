package io.varve.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A command line with the table installed, as a script sees it: the status of each way a command
 * can end.
 */
class ExitStatusMapperTest {

  /** Ends the way {@code --end} says. */
  @Command(name = "job", mixinStandardHelpOptions = true)
  static final class Job implements Callable<Integer> {
    @Option(names = "--end")
    String end = "ok";

    @Override
    public Integer call() throws Exception {
      return switch (end) {
        case "ok" -> ExitStatus.OK.code();
        case "bad-rows" -> ExitStatus.COMPLETED_WITH_ERRORS.code();
        case "bad-key" ->
            throw new IllegalArgumentException("source.host: x (expected: host:port)");
        case "lost" -> throw new IllegalStateException("connection lost");
        case "interrupted" -> throw new InterruptedException();
        case "interrupted-deep" ->
            throw new CompletionException(
                new UncheckedIOException(new ClosedByInterruptException()));
        case "oom" -> throw new OutOfMemoryError("Java heap space");
        default -> throw new CommandLine.ParameterException(new CommandLine(this), "--end: " + end);
      };
    }
  }

  /** Only groups its subcommand. */
  @Command(name = "tool", mixinStandardHelpOptions = true, subcommands = Job.class)
  static final class Tool {}

  private final StringWriter err = new StringWriter();
  private final StringWriter out = new StringWriter();
  private ExitStatusMapper tool;

  @BeforeEach
  void install() {
    CommandLine cli = new CommandLine(new Tool());
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(out, true));
    // IllegalArgumentException stands in for a module's configuration error naming its key.
    tool = ExitStatusMapper.install(cli, "tool", IllegalArgumentException.class);
  }

  private int run(String end) {
    return tool.execute("job", "--end", end);
  }

  @Test
  void what_the_command_returns_is_the_exit_code() {
    assertThat(run("ok")).isEqualTo(0);
    assertThat(run("bad-rows")).isEqualTo(1);
  }

  @Test
  void usage_errors_and_the_commands_invalid_input_types_are_invalid_input() {
    assertThat(tool.execute("job", "--bogus")).isEqualTo(2);
    assertThat(err.toString()).contains("Unknown option: '--bogus'");
    assertThat(run("nonsense")).isEqualTo(2);
    assertThat(run("bad-key")).isEqualTo(2);
    assertThat(err.toString()).contains("tool: source.host: x (expected: host:port)");
  }

  @Test
  void a_group_without_its_subcommand_is_invalid_input_naming_them() {
    assertThat(tool.execute()).isEqualTo(2);
    assertThat(err.toString()).contains("Missing subcommand (expected: one of job)");
    assertThat(tool.execute("nosuch")).isEqualTo(2);
  }

  @Test
  void other_exceptions_are_fatal_errors_printed_with_their_message() {
    assertThat(run("lost")).isEqualTo(4);
    assertThat(err.toString()).contains("tool: connection lost");
  }

  @Test
  void an_interruption_anywhere_in_the_causes_is_interrupted() {
    assertThat(run("interrupted")).isEqualTo(130);
    assertThat(run("interrupted-deep")).isEqualTo(130);
    assertThat(err.toString()).contains("tool: interrupted");
    assertThat(ExitStatus.of(new InterruptedIOException())).isEqualTo(ExitStatus.INTERRUPTED);
    // A socket timeout is an InterruptedIOException that nothing interrupted.
    assertThat(ExitStatus.of(new SocketTimeoutException()))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR);
  }

  @Test
  void an_error_of_the_jvm_is_a_crash_with_its_stack_trace() {
    assertThat(run("oom")).isEqualTo(5);
    assertThat(err.toString())
        .contains("tool: crashed: java.lang.OutOfMemoryError: Java heap space")
        .contains("at io.varve.command.ExitStatusMapperTest$Job.call");
  }

  @Test
  void help_exits_ok_and_ends_with_the_table_on_every_command() {
    assertThat(tool.execute("--help")).isEqualTo(0);
    assertThat(tool.execute("job", "--help")).isEqualTo(0);
    String help = out.toString();
    assertThat(help.split("Exit status \\(docs/exit-status.md\\):", -1)).hasSize(3);
    for (ExitStatus status : ExitStatus.values()) {
      assertThat(help)
          .containsPattern("(?m)^  " + status.code() + " +" + status.summary().split(" ")[0]);
    }
  }
}
