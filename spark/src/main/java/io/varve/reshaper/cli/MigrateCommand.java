package io.varve.reshaper.cli;

import io.varve.command.ExitStatus;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.config.JobConfigLoader;
import io.varve.reshaper.job.ReshapeJob;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code migrate --config job.yaml}: copies the source table to the target. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description =
        "Copies (and renames, reshapes) a table as the job file says; resumes from"
            + " its savepoint. See docs/reshaper.md.",
    subcommands = {ValidateCommand.class, ReplayCommand.class})
final class MigrateCommand implements Callable<Integer> {

  @Option(names = "--config", description = "the job's YAML file (required)")
  Path config;

  @Override
  public Integer call() {
    if (config == null) {
      System.err.println("migrate: error: --config: missing (expected: the job's YAML file)");
      return ExitStatus.INVALID_INPUT.code();
    }
    return run(config, ReshapeJob.Kind.COPY, false);
  }

  static int run(Path file, ReshapeJob.Kind kind, boolean copyMissing) {
    JobConfig job = load(file, kind.verb());
    return job == null
        ? ExitStatus.INVALID_INPUT.code()
        : exitStatus(new ReshapeJob(job, System.out, System.err).run(kind, copyMissing)).code();
  }

  /** The job file, or null after saying why it was refused. */
  static JobConfig load(Path file, String verb) {
    try {
      return JobConfigLoader.load(file);
    } catch (ConfigException e) {
      System.err.println(verb + ": error: " + e.getMessage());
      System.err.println(verb + ": nothing was written");
      return null;
    }
  }

  /**
   * The exit status of a job's outcome, the one place where the two meet: rows left in the bad-rows
   * file and differences found by a validation complete with errors; too many bad rows and a
   * conflict under {@code onConflict: fail} are thresholds.
   */
  static ExitStatus exitStatus(io.varve.reshaper.job.ExitStatus outcome) {
    return switch (outcome) {
      case OK -> ExitStatus.OK;
      case COMPLETED_WITH_BAD_ROWS, DIFFERENCES_FOUND -> ExitStatus.COMPLETED_WITH_ERRORS;
      case INVALID_INPUT -> ExitStatus.INVALID_INPUT;
      case TOO_MANY_BAD_ROWS, RESHAPE_CONFLICT -> ExitStatus.ABORTED_TOO_MANY_ERRORS;
      case FATAL -> ExitStatus.ABORTED_FATAL_ERROR;
    };
  }
}
