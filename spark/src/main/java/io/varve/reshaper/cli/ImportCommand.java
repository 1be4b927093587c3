package io.varve.reshaper.cli;

import io.varve.command.ExitStatus;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.transfer.NamespaceTransfer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code import --namespace N --in DIR}: Parquet files of events or items into a namespace. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description =
        "Writes the events or items of the Parquet files under --in into a namespace, stored as"
            + " the server stores them; a rerun resumes and writes no duplicate. See"
            + " docs/spark-data-sources.md.")
final class ImportCommand implements Callable<Integer> {

  @Mixin TransferOptions transfer;

  @Option(names = "--in", description = "the directory of Parquet files (required)")
  Path in;

  @Override
  public Integer call() {
    Map<String, String> options;
    try {
      if (in == null) {
        throw new ConfigException("--in", "missing", "a directory of Parquet files");
      }
      options = transfer.dataSourceOptions(Map.of());
    } catch (ConfigException e) {
      System.err.println("import: error: " + e.getMessage());
      return ExitStatus.INVALID_INPUT.code();
    }
    return new NamespaceTransfer(System.out, System.err).importFrom(options, in).code();
  }
}
