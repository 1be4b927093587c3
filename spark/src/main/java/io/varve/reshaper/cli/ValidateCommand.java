package io.varve.reshaper.cli;

import io.varve.reshaper.job.ReshapeJob;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code migrate validate --config job.yaml [--copy-missing]}. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description =
        "Compares source and target through the renames and the reshape rule;"
            + " reports missing and mismatched rows with samples. Exit 1 when they differ.")
final class ValidateCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, description = "the job's YAML file")
  Path config;

  @Option(names = "--copy-missing", description = "write the missing rows to the target")
  boolean copyMissing;

  @Override
  public Integer call() {
    return MigrateCommand.run(config, ReshapeJob.Kind.VALIDATE, copyMissing);
  }
}
