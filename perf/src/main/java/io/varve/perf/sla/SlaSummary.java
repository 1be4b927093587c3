package io.varve.perf.sla;

import io.varve.bench.result.OperationResult;
import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The {@code key=value} lines of {@code varve perf sla}, from the result files of its output
 * directory, in the order of their names: per run its throughput, per operation its p99 from the
 * intended start and of service time (ms) and its errors, the binding's counters, the SLA verdict;
 * then the reports.
 */
final class SlaSummary {

  private final Path directory;

  SlaSummary(Path directory) {
    this.directory = directory;
  }

  void print(PrintStream out, String sla) throws IOException {
    out.println("sla=" + sla);
    for (Path file : files(".json")) {
      RunResult result = ResultFiles.read(file);
      String label = result.label();
      out.println(label + ".throughput=" + decimals(result.throughput(), 0));
      for (Map.Entry<String, OperationResult> entry :
          new TreeMap<>(result.operations()).entrySet()) {
        String op = label + "." + entry.getKey().toLowerCase(Locale.ROOT);
        OperationResult o = entry.getValue();
        out.println(
            op
                + ".p99_ms="
                + decimals(o.intended().p99Us() / 1000.0, 2)
                + " "
                + op
                + ".service_p99_ms="
                + decimals(o.service().p99Us() / 1000.0, 2)
                + " "
                + op
                + ".errors="
                + o.errorCount());
      }
      if (result.counters() != null && !result.counters().isEmpty()) {
        out.println(
            label
                + ".counters="
                + result.counters().entrySet().stream()
                    .map(e -> "'" + e.getKey() + "': " + e.getValue())
                    .collect(Collectors.joining(", ", "{", "}")));
      }
      Path text = directory.resolve(file.getFileName().toString().replaceFirst("\\.json$", ".txt"));
      if (Files.exists(text)) {
        for (String line : Files.readAllLines(text, StandardCharsets.UTF_8)) {
          if (line.startsWith("[SLA], OVERALL")) {
            out.println(label + ".sla=" + line.split(", ")[2]);
          }
        }
      }
    }
    for (Path report : files(".html")) {
      if (report.getFileName().toString().startsWith("report-")) {
        out.println("report=" + report);
      }
    }
  }

  /** {@code <cores> cores, <memory> GiB, <kernel name> <release>}. */
  static String machine() {
    long memoryKb = 0;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          memoryKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // no /proc: the memory is printed as 0
    }
    return Runtime.getRuntime().availableProcessors()
        + " cores, "
        + decimals(memoryKb / 1048576.0, 0)
        + " GiB, "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version");
  }

  /** The files of the directory with this suffix, by name. */
  private List<Path> files(String suffix) throws IOException {
    try (Stream<Path> all = Files.list(directory)) {
      return all.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /**
   * The value rounded half to even from its exact binary value, as Python's and C's {@code printf}
   * round.
   */
  static String decimals(double value, int places) {
    return new BigDecimal(value).setScale(places, RoundingMode.HALF_EVEN).toPlainString();
  }
}
