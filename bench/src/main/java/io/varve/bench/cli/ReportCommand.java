package io.varve.bench.cli;

import io.varve.bench.report.HtmlReport;
import io.varve.bench.result.ResultFiles;
import io.varve.command.ExitStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bench report}: an HTML report putting one or more runs side by side. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description =
        "Write an HTML report (throughput and p99 over time, percentile curves) of one or more runs.")
final class ReportCommand implements Callable<Integer> {
  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "FILE",
      description = "HTML file to write.")
  Path output;

  @Parameters(
      arity = "1..*",
      paramLabel = "RESULT",
      description = "Result files, shown side by side.")
  List<Path> inputs;

  @Override
  public Integer call() throws IOException {
    HtmlReport.write(output, inputs.stream().map(ResultFiles::read).toList());
    System.out.println("[RESULT], Report, " + output.toAbsolutePath());
    return ExitStatus.OK.code();
  }
}
