package io.varve.bench.cli;

import io.varve.bench.capacity.CapacitySearch;
import io.varve.bench.engine.BenchRun;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.engine.Bindings;
import io.varve.bench.report.HtmlReport;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import io.varve.bench.sla.Sla;
import io.varve.bench.sla.SlaVerdict;
import io.varve.command.ExitStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code bench capacity <binding>}: the highest target throughput at which the SLA holds ({@link
 * CapacitySearch}). Each step is an ordinary run of the workload's transaction phase at one target,
 * {@code --warmup} seconds then {@code --seconds} measured, written as a result file of its own; a
 * step holds when the SLA is met and the measured throughput reaches the target within {@code
 * --tolerance}. Prints one line per step and last {@code capacity.ops_per_s=<rate>}.
 *
 * <p>Exit statuses: {@code OK} a capacity was found; {@code COMPLETED_WITH_ERRORS} no rate met the
 * SLA ({@code capacity.ops_per_s=0}); {@code INVALID_INPUT} a bad option, SLA or workload; {@code
 * ABORTED_FATAL_ERROR} a step failed to run.
 */
@Command(
    name = "capacity",
    mixinStandardHelpOptions = true,
    description = {
      "Find the highest target throughput at which the SLA holds: runs of --seconds at rising"
          + " targets (x --factor from --start), then a bisection to --precision.",
      "Each step is written as a result file under --result-dir, the search as "
          + CapacitySummary.FILE_NAME
          + " there (the input of bench cost); the last line is capacity.ops_per_s=<rate>."
          + " Exit 1 when no rate meets the SLA."
    })
final class CapacityCommand extends PhaseCommand {

  @Option(
      names = "--start",
      paramLabel = "OPS",
      defaultValue = "1000",
      description = "First target, ops/s (default: ${DEFAULT-VALUE}).")
  long start;

  @Option(
      names = "--max",
      paramLabel = "OPS",
      defaultValue = "1000000",
      description = "Highest target tried, ops/s (default: ${DEFAULT-VALUE}).")
  long max;

  @Option(
      names = "--min",
      paramLabel = "OPS",
      defaultValue = "10",
      description =
          "Lowest target tried when the first step fails, ops/s (default: ${DEFAULT-VALUE}).")
  long min;

  @Option(
      names = "--factor",
      defaultValue = "2",
      description = "Each ramp step's target over the last, above 1 (default: ${DEFAULT-VALUE}).")
  double factor;

  @Option(
      names = "--precision",
      defaultValue = "0.05",
      description =
          "Stop bisecting when the failed and held targets are this share of the held one"
              + " apart (default: ${DEFAULT-VALUE}).")
  double precision;

  @Option(
      names = "--max-steps",
      paramLabel = "N",
      defaultValue = "16",
      description = "Steps at most (default: ${DEFAULT-VALUE}).")
  int maxSteps;

  @Option(
      names = "--seconds",
      paramLabel = "SECONDS",
      defaultValue = "60",
      description = "Measured seconds of each step, after --warmup (default: ${DEFAULT-VALUE}).")
  long seconds;

  @Option(
      names = "--first-warmup",
      paramLabel = "SECONDS",
      defaultValue = "60",
      description =
          "Warm-up of the first step instead of --warmup (default: ${DEFAULT-VALUE}): a fresh"
              + " loader, a server that has not yet served the workload and cold caches would fail"
              + " it and send the search below a capacity it never revisits.")
  long firstWarmup;

  @Option(
      names = "--tolerance",
      defaultValue = "0.05",
      description =
          "A step holds only if its throughput reaches the target less this share (default:"
              + " ${DEFAULT-VALUE}).")
  double tolerance;

  @Option(
      names = "--result-dir",
      paramLabel = "DIR",
      description =
          "Where the steps' result files go (default:"
              + " bench-results/<label>-capacity-<time>/).")
  Path resultDir;

  @Option(names = "--verbose", description = "Print each step's YCSB output too.")
  boolean verbose;

  @Override
  BenchSpec.Phase phase() {
    return BenchSpec.Phase.RUN;
  }

  @Override
  public Integer call() throws IOException {
    if (target != null) {
      throw refused("-target", target, "absent: the search sets each step's target");
    }
    if (result != null) {
      throw refused("--result", result, "absent: each step's file goes under --result-dir");
    }
    if (sla.sla == null) {
      throw refused("--sla", "absent", "the SLA whose capacity is sought");
    }
    if (seconds < 1 || seconds > 86_400) {
      throw refused("--seconds", seconds, "1..86400");
    }
    if (firstWarmup < 0 || firstWarmup > 86_400) {
      throw refused("--first-warmup", firstWarmup, "0..86400");
    }
    if (!(tolerance >= 0 && tolerance < 1)) {
      throw refused("--tolerance", tolerance, "0 up to 1, excluded");
    }
    CapacitySearch.Settings settings;
    try {
      settings = new CapacitySearch.Settings(start, max, min, factor, precision, maxSteps);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          command.commandLine(),
          "--min "
              + min
              + ", --start "
              + start
              + ", --max "
              + max
              + ", --factor "
              + factor
              + ", --precision "
              + precision
              + ", --max-steps "
              + maxSteps
              + " (expected: 1 <= min <= start <= max, factor above 1, precision in (0, 1),"
              + " at least 1 step)");
    }
    Sla parsedSla = sla.parsed();
    if (!Bindings.names().contains(binding) && !binding.contains(".")) {
      throw refused("BINDING", binding, "one of " + Bindings.names());
    }
    Properties base = properties();
    long warmupSeconds = warmup == null ? 10 : warmup;
    String runLabel = label != null ? label : binding + "-run";
    Path dir =
        resultDir != null
            ? resultDir
            : Path.of(
                "bench-results",
                runLabel
                    + "-capacity-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    List<RunResult> runs = new ArrayList<>();
    List<CapacitySummary.Step> summarySteps = new ArrayList<>();
    System.out.printf(
        Locale.ROOT,
        "capacity: %s, SLA %s (%s latency), steps of %d s after %d s of warm-up (%d s for the"
            + " first)%n",
        binding,
        sla.sla,
        sla.latency,
        seconds,
        warmupSeconds,
        firstWarmup);
    CapacitySearch.Outcome outcome;
    try {
      outcome =
          CapacitySearch.search(
              settings,
              (index, phase, stepTarget) -> {
                Properties props = new Properties();
                props.putAll(base);
                props.setProperty("target", Long.toString(stepTarget));
                long stepWarmup = index == 1 ? firstWarmup : warmupSeconds;
                props.setProperty("warmuptime", Long.toString(stepWarmup));
                props.setProperty("maxexecutiontime", Long.toString(stepWarmup + seconds));
                props.setProperty(
                    "operationcount",
                    Long.toString(Math.max(1, stepTarget * (stepWarmup + seconds))));
                PrintStream quiet =
                    verbose ? System.out : new PrintStream(OutputStream.nullOutputStream());
                RunResult run =
                    new BenchRun(
                            new BenchSpec(
                                binding, BenchSpec.Phase.RUN, props, runLabel + "@" + stepTarget),
                            quiet,
                            verbose ? System.err : quiet)
                        .run();
                Path file =
                    dir.resolve(String.format(Locale.ROOT, "step-%02d-%d.json", index, stepTarget));
                ResultFiles.write(file, run);
                runs.add(run);
                SlaVerdict verdict = parsedSla.check(run, sla.latency);
                boolean reached = run.throughput() >= (1 - tolerance) * stepTarget;
                boolean held = verdict.met() && reached;
                summarySteps.add(
                    new CapacitySummary.Step(
                        index,
                        phase.name().toLowerCase(Locale.ROOT),
                        stepTarget,
                        run.throughput(),
                        held,
                        highestP99Ms(run),
                        file.getFileName().toString()));
                System.out.printf(
                    Locale.ROOT,
                    "capacity: step %d %s target=%d achieved=%.1f %s%s -> %s (%s)%n",
                    index,
                    phase.name().toLowerCase(Locale.ROOT),
                    stepTarget,
                    run.throughput(),
                    shown(verdict),
                    reached ? "" : " throughput under the target",
                    held ? "HELD" : "FAILED",
                    file);
                return held;
              });
    } catch (ParameterException | io.varve.bench.engine.BenchInputException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    Path summaryFile = dir.resolve(CapacitySummary.FILE_NAME);
    CapacitySummary summary = summary(base, runLabel, warmupSeconds, outcome, runs, summarySteps);
    ResultFiles.write(summaryFile, summary);
    if (report != null) {
      HtmlReport.write(report, runs, List.of(summary), null);
      System.out.println("[RESULT], Report, " + report.toAbsolutePath());
    }
    if (outcome.atMax()) {
      System.out.println("capacity: the SLA held at --max " + max + ": the capacity may be higher");
    }
    System.out.println("capacity.summary=" + summaryFile.toAbsolutePath());
    System.out.println("capacity.steps=" + outcome.steps().size());
    System.out.println("capacity.ops_per_s=" + outcome.capacity());
    return (outcome.capacity() > 0 ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }

  private CapacitySummary summary(
      Properties base,
      String runLabel,
      long warmupSeconds,
      CapacitySearch.Outcome outcome,
      List<RunResult> runs,
      List<CapacitySummary.Step> steps) {
    Map<String, String> properties = new TreeMap<>();
    base.stringPropertyNames().forEach(k -> properties.put(k, base.getProperty(k)));
    Map<String, Long> operations = new TreeMap<>();
    Map<String, Long> counters = new TreeMap<>();
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i).held() && steps.get(i).target() == outcome.capacity()) {
        runs.get(i).operations().forEach((type, op) -> operations.put(type, op.count()));
        counters.putAll(runs.get(i).counters());
      }
    }
    return new CapacitySummary(
        CapacitySummary.FORMAT,
        runLabel,
        binding,
        properties.getOrDefault("workload", ""),
        properties,
        sla.sla,
        sla.latency.name(),
        outcome.capacity(),
        outcome.atMax(),
        seconds,
        warmupSeconds,
        tolerance,
        List.copyOf(steps),
        operations,
        counters);
  }

  /** The highest p99 over the run's operation types, of the SLA's latency kind, in ms. */
  private double highestP99Ms(RunResult run) {
    return run.operations().values().stream()
            .mapToLong(op -> op.latency(sla.latency).p99Us())
            .max()
            .orElse(0)
        / 1000.0;
  }

  /** The verdict's clauses as {@code metric=actual (met|missed)}. */
  private static String shown(SlaVerdict verdict) {
    StringBuilder out = new StringBuilder();
    for (SlaVerdict.ClauseVerdict c : verdict.clauses()) {
      out.append(out.isEmpty() ? "" : " ").append(c.shown()).append(c.met() ? "" : " (missed)");
    }
    return out.toString();
  }

  private ParameterException refused(String option, Object value, String expected) {
    return new ParameterException(
        command.commandLine(), option + ": " + value + " (expected: " + expected + ")");
  }
}
