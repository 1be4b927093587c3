package io.varve.bench.result;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Merges the results of loaders that ran the same phase at the same time into one result.
 * Histograms are added, never percentiles averaged: the merged p99 is the p99 of all operations of
 * all loaders. Seconds line up by wall clock.
 */
public final class ResultMerge {
  private ResultMerge() {}

  /** Merges one or more results; they must be of the same binding and phase. */
  public static RunResult merge(List<RunResult> results) {
    if (results.isEmpty()) {
      throw new ResultFileException("nothing to merge: give at least one result file");
    }
    RunResult first = results.get(0);
    for (RunResult r : results) {
      if (!r.binding().equals(first.binding()) || !r.phase().equals(first.phase())) {
        throw new ResultFileException(
            "cannot merge a "
                + r.binding()
                + " "
                + r.phase()
                + " result with a "
                + first.binding()
                + " "
                + first.phase()
                + " result: merge loaders of one run only");
      }
    }
    long start = results.stream().mapToLong(RunResult::startedAtMs).min().orElseThrow();
    long end =
        results.stream().mapToLong(r -> r.startedAtMs() + r.durationMs()).max().orElseThrow();
    long durationMs = Math.max(1, end - start);

    Map<String, Histogram[]> histograms = new TreeMap<>();
    Map<String, Map<String, Long>> errors = new TreeMap<>();
    Map<String, Long> counters = new TreeMap<>();
    Map<String, Double> load = new TreeMap<>();
    Set<String> hosts = new LinkedHashSet<>();
    int threads = 0;
    long target = 0;
    int loaders = 0;
    for (RunResult r : results) {
      r.operations()
          .forEach(
              (name, op) -> {
                Histogram[] h =
                    histograms.computeIfAbsent(
                        name, n -> new Histogram[] {new Histogram(3), new Histogram(3)});
                h[0].add(
                    HistogramCodec.decode(name + ".intendedHistogram", op.intendedHistogram()));
                h[1].add(HistogramCodec.decode(name + ".serviceHistogram", op.serviceHistogram()));
                op.errors()
                    .forEach(
                        (status, n) ->
                            errors
                                .computeIfAbsent(name, k -> new TreeMap<>())
                                .merge(status, n, Long::sum));
              });
      r.counters().forEach((k, v) -> counters.merge(k, v, Long::sum));
      r.load().forEach((k, v) -> load.merge(k, v, mergeLoad(k)));
      hosts.add(r.host());
      threads += r.threads();
      target += r.targetOpsPerSec();
      loaders += r.loaders();
    }
    Map<String, OperationResult> operations = new TreeMap<>();
    histograms.forEach(
        (name, h) ->
            operations.put(
                name, OperationResult.of(h[0], h[1], errors.getOrDefault(name, Map.of()))));
    long ok = operations.values().stream().mapToLong(OperationResult::count).sum();
    return new RunResult(
        RunResult.FORMAT,
        first.label(),
        first.binding(),
        first.phase(),
        first.workload(),
        first.properties(),
        threads,
        target,
        loaders,
        String.join(",", hosts),
        start,
        durationMs,
        ok * 1000.0 / durationMs,
        operations,
        counters,
        mergeTimelines(results),
        results.stream().mapToLong(RunResult::warmupMs).max().orElse(0),
        load);
  }

  /**
   * How two loaders' figures of one load name combine: the loaders' own are added; the servers'
   * were seen by every loader alike, so the highest stands (a mean of means would need weights the
   * files do not carry).
   */
  private static java.util.function.BinaryOperator<Double> mergeLoad(String name) {
    return name.startsWith("loader.") ? Double::sum : Math::max;
  }

  private static List<SecondResult> mergeTimelines(List<RunResult> results) {
    Map<Long, Map<String, Histogram[]>> seconds = new TreeMap<>();
    Map<Long, Map<String, Long>> secondErrors = new TreeMap<>();
    Set<Long> warmup = new java.util.HashSet<>();
    Map<Long, Map<String, Double>> secondLoad = new TreeMap<>();
    for (RunResult r : results) {
      for (SecondResult s : r.timeline()) {
        if (s.warmup()) {
          warmup.add(s.epochSecond());
        }
        s.load()
            .forEach(
                (k, v) ->
                    secondLoad
                        .computeIfAbsent(s.epochSecond(), x -> new TreeMap<>())
                        .merge(k, v, mergeLoad(k)));
        s.operations()
            .forEach(
                (name, op) -> {
                  Histogram[] h =
                      seconds
                          .computeIfAbsent(s.epochSecond(), k -> new TreeMap<>())
                          .computeIfAbsent(
                              name, n -> new Histogram[] {new Histogram(3), new Histogram(3)});
                  h[0].add(
                      HistogramCodec.decode(
                          "timeline." + name + ".intendedHistogram", op.intendedHistogram()));
                  h[1].add(
                      HistogramCodec.decode(
                          "timeline." + name + ".serviceHistogram", op.serviceHistogram()));
                  secondErrors
                      .computeIfAbsent(s.epochSecond(), k -> new TreeMap<>())
                      .merge(name, op.errors(), Long::sum);
                });
      }
    }
    List<SecondResult> merged = new ArrayList<>();
    seconds.forEach(
        (second, ops) -> {
          Map<String, SecondResult.Op> out = new TreeMap<>();
          ops.forEach(
              (name, h) ->
                  out.put(
                      name,
                      new SecondResult.Op(
                          h[0].getTotalCount(),
                          secondErrors.get(second).getOrDefault(name, 0L),
                          h[0].getValueAtPercentile(99),
                          h[1].getValueAtPercentile(99),
                          HistogramCodec.encode(h[0]),
                          HistogramCodec.encode(h[1]))));
          merged.add(
              new SecondResult(
                  second, out, warmup.contains(second), secondLoad.getOrDefault(second, Map.of())));
        });
    return merged;
  }
}
