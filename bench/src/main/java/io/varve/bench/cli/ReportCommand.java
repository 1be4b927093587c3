package io.varve.bench.cli;

import io.varve.bench.cost.CostTable;
import io.varve.bench.cost.Pricing;
import io.varve.bench.report.HtmlReport;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.ResultFiles;
import io.varve.command.ExitStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bench report}: an HTML report putting one or more runs side by side. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description =
        "Write an HTML report (throughput, p99 and the servers' load over time, percentile curves)"
            + " of one or more runs, with capacity searches' steps and their cost table.")
final class ReportCommand implements Callable<Integer> {
  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "FILE",
      description = "HTML file to write.")
  Path output;

  @Parameters(
      arity = "0..*",
      paramLabel = "RESULT",
      description = "Result files, shown side by side.")
  List<Path> inputs = new ArrayList<>();

  @Option(
      names = "--capacity",
      paramLabel = "CAPACITY",
      description =
          "A capacity search (its capacity.json or directory): its steps, target against achieved"
              + " and p99 against the SLA; repeatable.")
  List<Path> capacities = new ArrayList<>();

  @Option(
      names = "--pricing",
      paramLabel = "FILE",
      description = "Also the cost table of the --capacity searches, as bench cost prints it.")
  Path pricing;

  @Option(
      names = "--ops",
      paramLabel = "OPS",
      description = "The throughput the cost table prices (default: the highest capacity).")
  Double ops;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws IOException {
    if (inputs.isEmpty() && capacities.isEmpty()) {
      throw new ParameterException(
          command.commandLine(), "RESULT: none (expected: result files, or --capacity searches)");
    }
    if (pricing == null && ops != null) {
      throw new ParameterException(
          command.commandLine(), "--ops: " + ops + " (expected: with --pricing, which it prices)");
    }
    if (pricing != null && capacities.isEmpty()) {
      throw new ParameterException(
          command.commandLine(),
          "--pricing: " + pricing + " (expected: with --capacity searches to price)");
    }
    List<CapacitySummary> searches = capacities.stream().map(ResultFiles::readCapacity).toList();
    CostTable cost =
        pricing == null
            ? null
            : CostTable.of(Pricing.read(pricing), searches, Optional.ofNullable(ops));
    HtmlReport.write(output, inputs.stream().map(ResultFiles::read).toList(), searches, cost);
    System.out.println("[RESULT], Report, " + output.toAbsolutePath());
    return ExitStatus.OK.code();
  }
}
