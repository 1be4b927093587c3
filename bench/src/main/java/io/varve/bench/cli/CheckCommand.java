package io.varve.bench.cli;

import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import io.varve.bench.sla.Sla;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code bench check}: the SLA verdict of a result file written earlier. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Check a result file against an SLA.")
final class CheckCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "RESULT", description = "Result file.")
  Path input;

  @Mixin SlaOptions sla;

  @Override
  public Integer call() {
    Sla parsed = sla.parsed();
    if (parsed == null) {
      throw new picocli.CommandLine.ParameterException(
          sla.mixee.commandLine(), "--sla is required");
    }
    RunResult result = ResultFiles.read(input);
    Summary.print(result, System.out);
    return sla.judge(parsed, result, System.out);
  }
}
