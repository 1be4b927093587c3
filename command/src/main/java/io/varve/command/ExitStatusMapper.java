package io.varve.command;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Applies the {@link ExitStatus} table to a picocli command line and every subcommand under it: the
 * exit codes of success, help, usage errors and exceptions, the "Exit status" section of each
 * command's help, and the mapping of an exception to a status. A command that only groups
 * subcommands, run without one, is a usage error.
 *
 * <pre>
 * CommandLine cli = new CommandLine(new VarveCli());
 * return ExitStatusMapper.install(cli, "varve", InvalidFieldException.class).execute(args);
 * </pre>
 *
 * <p>A command returns {@code ExitStatus.X.code()} for the outcomes it judges itself (a missed SLA,
 * bad rows) and throws for the rest: a picocli {@link ParameterException} or one of the {@code
 * invalidInput} types is {@link ExitStatus#INVALID_INPUT}, anything else goes through {@link
 * ExitStatus#of(Throwable)}.
 */
public final class ExitStatusMapper
    implements IExecutionExceptionHandler, IExitCodeExceptionMapper {

  private final CommandLine commandLine;
  private final String name;
  private final List<Class<? extends Throwable>> invalidInput;

  private ExitStatusMapper(
      CommandLine commandLine, String name, List<Class<? extends Throwable>> invalidInput) {
    this.commandLine = commandLine;
    this.name = name;
    this.invalidInput = invalidInput;
  }

  /**
   * Configures {@code commandLine} and the subcommands it has now (add none later).
   *
   * @param name the first word of error lines, like {@code varve}
   * @param invalidInput the exception types of the command's modules that mean invalid input, like
   *     a configuration error naming its key
   */
  @SafeVarargs
  public static ExitStatusMapper install(
      CommandLine commandLine, String name, Class<? extends Throwable>... invalidInput) {
    ExitStatusMapper mapper = new ExitStatusMapper(commandLine, name, List.of(invalidInput));
    commandLine.setExecutionExceptionHandler(mapper);
    commandLine.setExitCodeExceptionMapper(mapper);
    commandLine.setExecutionStrategy(mapper::run);
    configure(commandLine);
    return mapper;
  }

  /**
   * Runs the command line and returns its exit code. An {@link Error}, which picocli lets through,
   * is {@link ExitStatus#CRASHED}, printed with its stack trace.
   */
  public int execute(String... args) {
    try {
      return commandLine.execute(args);
    } catch (Error e) {
      commandLine.getErr().println(name + ": crashed: " + e);
      e.printStackTrace(commandLine.getErr());
      commandLine.getErr().flush();
      return ExitStatus.CRASHED.code();
    }
  }

  /** The status of a failure of this command line. */
  public ExitStatus statusOf(Throwable failure) {
    if (failure instanceof ParameterException
        || invalidInput.stream().anyMatch(type -> type.isInstance(failure))) {
      return ExitStatus.INVALID_INPUT;
    }
    return ExitStatus.of(failure);
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine failed, ParseResult parsed) {
    ExitStatus status = statusOf(e);
    failed
        .getErr()
        .println(
            name
                + ": "
                + (status == ExitStatus.INTERRUPTED
                    ? "interrupted"
                    : e.getMessage() == null ? e.toString() : e.getMessage()));
    failed.getErr().flush();
    return status.code();
  }

  @Override
  public int getExitCode(Throwable exception) {
    return statusOf(exception).code();
  }

  /** The help's exit status section: every status, code and summary, in the enum's order. */
  public static Map<String, String> exitCodeList() {
    Map<String, String> list = new LinkedHashMap<>();
    for (ExitStatus status : ExitStatus.values()) {
      list.put(Integer.toString(status.code()), status.summary());
    }
    return list;
  }

  private static void configure(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    spec.exitCodeOnSuccess(ExitStatus.OK.code())
        .exitCodeOnUsageHelp(ExitStatus.OK.code())
        .exitCodeOnVersionHelp(ExitStatus.OK.code())
        .exitCodeOnInvalidInput(ExitStatus.INVALID_INPUT.code())
        .exitCodeOnExecutionException(ExitStatus.ABORTED_FATAL_ERROR.code());
    spec.usageMessage()
        .exitCodeListHeading("%nExit status (docs/exit-status.md):%n")
        .exitCodeList(exitCodeList());
    command.getSubcommands().values().forEach(ExitStatusMapper::configure);
  }

  private int run(ParseResult parsed) {
    Integer help = CommandLine.executeHelpRequest(parsed);
    if (help != null) {
      return help;
    }
    List<CommandLine> commands = parsed.asCommandLineList();
    CommandLine last = commands.get(commands.size() - 1);
    Object command = last.getCommand();
    if (!last.getSubcommands().isEmpty()
        && !(command instanceof Runnable)
        && !(command instanceof Callable)) {
      throw new ParameterException(
          last,
          "Missing subcommand (expected: one of "
              + String.join(", ", last.getSubcommands().keySet())
              + ")");
    }
    return new CommandLine.RunLast().execute(parsed);
  }
}
