package io.varve.bench.load;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Samples a run's {@link LoadSource}s once a second: each second's figures (the totals' differences
 * from the last sample, the levels as sampled) and, over the measured part of the run, each total's
 * difference ({@code <name>}) and each level's mean and highest ({@code <name>.mean}, {@code
 * <name>.max}). Called from one sampling thread. A source that throws skips that sample with a
 * warning, and is dropped after {@value #FAILURES_TO_DROP} failures in a row.
 */
public final class LoadMeter implements AutoCloseable {

  private final List<LoadSource> sources;
  private final PrintStream warnings;
  private final Map<String, Double> last = new HashMap<>();
  private Map<String, Double> measuredFrom;
  private final Map<String, Double> levelSums = new TreeMap<>();
  private final Map<String, Double> levelMax = new TreeMap<>();
  private final Map<String, Integer> levelCounts = new HashMap<>();
  private final Map<String, Double> firstMeasured = new HashMap<>();
  private final Map<LoadSource, Integer> failures = new HashMap<>();

  /** A source that fails this many samples in a row is dropped; a single failure skips a sample. */
  static final int FAILURES_TO_DROP = 3;

  public LoadMeter(List<LoadSource> sources, PrintStream warnings) {
    this.sources = new ArrayList<>(sources);
    this.warnings = warnings;
  }

  /** The first sample, at the run's start. */
  public synchronized void start() {
    last.putAll(sample(false).totals);
  }

  /**
   * One second's figures; {@code measured} marks the seconds of the measured part (the first such
   * second's start is where the run's totals count from).
   */
  public synchronized Map<String, Double> second(boolean measured) {
    Sample now = sample(measured);
    if (measured && measuredFrom == null) {
      // the run's totals count from the start of the first measured second: the last sample
      measuredFrom = new HashMap<>(last);
    }
    if (measured) {
      // a total first seen after the measured part began (its source failed before) counts from
      // its first value
      now.totals.forEach(firstMeasured::putIfAbsent);
    }
    Map<String, Double> figures = new TreeMap<>();
    now.totals.forEach(
        (name, value) -> {
          Double before = last.get(name);
          if (before != null) {
            figures.put(name, value - before);
          }
        });
    figures.putAll(now.levels);
    last.putAll(now.totals);
    return figures;
  }

  /** Over the measured part: each total's difference, each level's mean and highest. */
  public synchronized Map<String, Double> run() {
    Map<String, Double> out = new TreeMap<>();
    if (measuredFrom != null) {
      last.forEach(
          (name, value) -> {
            Double from = measuredFrom.getOrDefault(name, firstMeasured.get(name));
            if (from != null) {
              out.put(name, value - from);
            }
          });
    }
    levelSums.forEach((name, sum) -> out.put(name + ".mean", sum / levelCounts.get(name)));
    levelMax.forEach((name, max) -> out.put(name + ".max", max));
    return out;
  }

  private record Sample(Map<String, Double> totals, Map<String, Double> levels) {}

  private Sample sample(boolean measured) {
    Map<String, Double> totals = new TreeMap<>();
    Map<String, Double> levels = new TreeMap<>();
    for (LoadSource source : List.copyOf(sources)) {
      try {
        Map<String, Double> t = source.totals();
        failures.remove(source);
        totals.putAll(t);
        Map<String, Double> l = source.levels();
        levels.putAll(l);
        if (measured) {
          l.forEach(
              (name, value) -> {
                levelSums.merge(name, value, Double::sum);
                levelCounts.merge(name, 1, Integer::sum);
                levelMax.merge(name, value, Math::max);
              });
        }
      } catch (Exception | LinkageError e) {
        int failed = failures.merge(source, 1, Integer::sum);
        boolean drop = failed >= FAILURES_TO_DROP;
        warnings.println(
            "load: "
                + source.name()
                + (drop
                    ? " dropped from this run after " + failed + " failed samples in a row: "
                    : " skipped a sample: ")
                + e.getClass().getSimpleName()
                + ": "
                + e.getMessage());
        if (drop) {
          sources.remove(source);
          source.close();
        }
      }
    }
    return new Sample(totals, levels);
  }

  @Override
  public synchronized void close() {
    sources.forEach(LoadSource::close);
    sources.clear();
  }
}
