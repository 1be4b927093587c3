package io.varve.bench.cli;

import io.varve.bench.engine.BenchInputException;
import io.varve.bench.engine.BenchRun;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.engine.Bindings;
import io.varve.bench.report.HtmlReport;
import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import io.varve.bench.sla.Sla;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bench load|run <binding>} with YCSB's own options: {@code -P} workload files (later files
 * win), {@code -p name=value} (wins over every file), {@code -threads}, {@code -target}, {@code
 * -s}.
 */
abstract class PhaseCommand implements Callable<Integer> {
  @Spec CommandSpec command;

  @Parameters(
      index = "0",
      paramLabel = "BINDING",
      description =
          "cql, dynamodb, varve, varve-kv, noop, or the class name of a YCSB site.ycsb.DB.")
  String binding;

  @Option(
      names = "-P",
      paramLabel = "FILE",
      description = "Workload property file (YCSB format); repeatable.")
  List<Path> propertyFiles = new ArrayList<>();

  @Option(
      names = "-p",
      paramLabel = "NAME=VALUE",
      description = "One property; wins over the files; repeatable.")
  List<String> properties = new ArrayList<>();

  @Option(names = "-threads", paramLabel = "N", description = "Client threads (YCSB threadcount).")
  Integer threads;

  @Option(
      names = "-target",
      paramLabel = "OPS",
      description =
          "Target operations per second over all threads; "
              + "operations are scheduled at this rate and latency is measured from their scheduled time.")
  Long target;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      description =
          "Run this long before measuring: "
              + "the result file, the summary and the SLA leave the warm-up out (property warmuptime).")
  Long warmup;

  @Option(
      names = "--cold",
      description =
          "Before the run, the Cassandra nodes flush their tables and empty their key, row and"
              + " counter caches (over JMX), and the OS page cache is dropped where they run on this"
              + " machine (root only): property serverload.cold, docs/bench.md#load.")
  boolean cold;

  @Option(
      names = "-s",
      description = "Print a status line to standard error every status.interval seconds (10).")
  boolean status;

  @Option(
      names = {"-l", "--label"},
      paramLabel = "LABEL",
      description = "Name of this run in results and reports " + "(default: <binding>-<phase>).")
  String label;

  @Option(
      names = "--result",
      paramLabel = "FILE",
      description = "JSON result file " + "(default: bench-results/<label>-<time>.json).")
  Path result;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description = "Also write an HTML report of this run.")
  Path report;

  @Mixin SlaOptions sla;

  abstract BenchSpec.Phase phase();

  @Override
  public Integer call() throws IOException {
    Sla parsedSla = sla.parsed();
    Properties props = properties();
    String runLabel = label != null ? label : binding + "-" + phase().cliName();
    if (!Bindings.names().contains(binding) && !binding.contains(".")) {
      throw new ParameterException(
          command.commandLine(),
          "binding "
              + binding
              + " is not known: expected one of "
              + Bindings.names()
              + " or the class name of a site.ycsb.DB");
    }
    RunResult run =
        new BenchRun(new BenchSpec(binding, phase(), props, runLabel), System.out, System.err)
            .run();
    Path file =
        result != null
            ? result
            : Path.of(
                "bench-results",
                runLabel
                    + "-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                    + ".json");
    ResultFiles.write(file, run);
    Summary.printLoad(run, System.out);
    System.out.println("[RESULT], File, " + file.toAbsolutePath());
    if (report != null) {
      HtmlReport.write(report, List.of(run));
      System.out.println("[RESULT], Report, " + report.toAbsolutePath());
    }
    return sla.judge(parsedSla, run, System.out);
  }

  Properties properties() {
    Properties props = new Properties();
    for (Path file : propertyFiles) {
      try (InputStream in = Files.newInputStream(file)) {
        props.load(in);
      } catch (IOException e) {
        throw new ParameterException(
            command.commandLine(),
            "-P "
                + file
                + ": cannot read the workload file ("
                + e.getClass().getSimpleName()
                + ": "
                + e.getMessage()
                + ")");
      }
    }
    Map<String, String> overrides = new LinkedHashMap<>();
    for (String p : properties) {
      int eq = p.indexOf('=');
      if (eq < 1) {
        throw new ParameterException(
            command.commandLine(), "-p " + p + " is not valid: expected NAME=VALUE");
      }
      overrides.put(p.substring(0, eq).trim(), p.substring(eq + 1));
    }
    props.putAll(overrides);
    if (threads != null) {
      props.setProperty("threadcount", String.valueOf(threads));
    }
    if (target != null) {
      props.setProperty("target", String.valueOf(target));
    }
    if (status) {
      props.setProperty("status", "true");
    }
    if (warmup != null) {
      props.setProperty("warmuptime", String.valueOf(warmup));
    }
    if (cold) {
      props.setProperty("serverload.cold", "true");
    }
    props.putIfAbsent("measurementtype", "hdrhistogram");
    props.putIfAbsent("measurement.interval", "both");
    props.putIfAbsent("hdrhistogram.percentiles", "50,95,99,99.9");
    if (props.getProperty("workload") == null) {
      throw new BenchInputException(
          "property workload is missing: give a workload file with -P, e.g. -P workloads/workloada");
    }
    return props;
  }

  /** {@code bench load}: the insert phase (YCSB's -load). */
  @Command(
      name = "load",
      mixinStandardHelpOptions = true,
      description = "Populate: run the workload's inserts.")
  static final class Load extends PhaseCommand {
    @Override
    BenchSpec.Phase phase() {
      return BenchSpec.Phase.LOAD;
    }
  }

  /** {@code bench run}: the transaction phase (YCSB's -t). */
  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description = "Run the workload's operations.")
  static final class Run extends PhaseCommand {
    @Override
    BenchSpec.Phase phase() {
      return BenchSpec.Phase.RUN;
    }
  }
}
