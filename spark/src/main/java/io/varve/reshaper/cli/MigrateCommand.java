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
        : new ReshapeJob(job, System.out, System.err).run(kind, copyMissing).exitStatus().code();
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
}
