package io.varve.reshaper.cli;

import io.varve.command.ExitStatus;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.transfer.NamespaceTransfer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code export --namespace N [--from T1] [--to T2] --out DIR}: a namespace's events or items to
 * Parquet.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description =
        "Writes a TimeSeries namespace's events of [--from, --to) to Parquet files under --out,"
            + " one directory per slice, or a KeyValue namespace's items to --out/items; a rerun"
            + " resumes. See docs/spark-data-sources.md.")
final class ExportCommand implements Callable<Integer> {

  @Mixin TransferOptions transfer;

  @Option(names = "--from", description = "TimeSeries: events at or after this RFC 3339 time")
  String from;

  @Option(names = "--to", description = "TimeSeries: events before this RFC 3339 time")
  String to;

  @Option(names = "--out", description = "the directory the files go to (required)")
  Path out;

  @Override
  public Integer call() {
    Map<String, String> given = new LinkedHashMap<>();
    if (from != null) {
      given.put("from", from);
    }
    if (to != null) {
      given.put("to", to);
    }
    Map<String, String> options;
    try {
      if (out == null) {
        throw new ConfigException("--out", "missing", "the directory the files go to");
      }
      options = transfer.dataSourceOptions(given);
    } catch (ConfigException e) {
      System.err.println("export: error: " + e.getMessage());
      return ExitStatus.INVALID_INPUT.code();
    }
    return new NamespaceTransfer(System.out, System.err).export(options, out).code();
  }
}
