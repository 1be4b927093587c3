package io.varve.reshaper.cli;

import io.varve.command.ExitStatus;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.job.ReplayJob;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code migrate replay --config job.yaml [--bad-rows file]}. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description =
        "Writes the rows of the job's bad-rows file to the target again; the file"
            + " then holds only the rows that still fail. See docs/reshaper.md.")
final class ReplayCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, description = "the job's YAML file")
  Path config;

  @Option(
      names = "--bad-rows",
      description =
          "the file to replay; default: the job's" + " bad-rows file (failures.badRowsPath)")
  Path badRows;

  @Override
  public Integer call() {
    JobConfig job = MigrateCommand.load(config, "replay");
    return job == null
        ? ExitStatus.INVALID_INPUT.code()
        : new ReplayJob(job, System.out, System.err).run(badRows).exitStatus().code();
  }
}
