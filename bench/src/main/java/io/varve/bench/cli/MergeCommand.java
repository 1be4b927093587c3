package io.varve.bench.cli;

import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.ResultMerge;
import io.varve.bench.result.RunResult;
import io.varve.bench.sla.Sla;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bench merge}: one result from the result files of several loaders of one run. */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    description =
        "Merge the result files of loaders that ran together (histograms are added, not averaged).")
final class MergeCommand implements Callable<Integer> {
  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "FILE",
      description = "Merged result file.")
  Path output;

  @Parameters(arity = "1..*", paramLabel = "RESULT", description = "Result files to merge.")
  List<Path> inputs;

  @Mixin SlaOptions sla;

  @Override
  public Integer call() throws IOException {
    Sla parsed = sla.parsed();
    RunResult merged = ResultMerge.merge(inputs.stream().map(ResultFiles::read).toList());
    ResultFiles.write(output, merged);
    Summary.print(merged, System.out);
    System.out.printf(Locale.ROOT, "[RESULT], File, %s%n", output.toAbsolutePath());
    return sla.judge(parsed, merged, System.out);
  }
}
