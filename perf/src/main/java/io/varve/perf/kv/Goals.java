package io.varve.perf.kv;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals of the KeyValue figures and their verdicts, printed as {@code goal.<figure>=PASS|FAIL
 * (<value> <op> <bound>)} lines and one {@code goals=PASS|FAIL (<n> of <m> met)}. A goal whose
 * figure was not measured gets no line: there is no verdict without a number.
 */
final class Goals {

  /** One goal: a figure and the bound it must keep. */
  record Goal(String figure, boolean atLeast, double bound) {

    boolean met(double value) {
      return !Double.isNaN(value) && (atLeast ? value >= bound : value <= bound);
    }
  }

  /** The goals, in the order printed. */
  static final List<Goal> ALL =
      List.of(
          new Goal("put.ratio", true, 0.8),
          new Goal("get.p99.ratio", false, 1.5),
          new Goal("chunked.put.ratio", true, 0.7),
          new Goal("chunked.get.ratio", true, 0.7),
          new Goal("page.p99.spread", false, 3),
          new Goal("read_amplification", false, 1.2));

  private Goals() {}

  /**
   * The verdict lines ({@code key}, {@code value}) for the goals whose figure is in {@code
   * measured}, then the overall one.
   */
  static List<Map.Entry<String, String>> verdicts(Map<String, Double> measured) {
    List<Map.Entry<String, String>> lines = new ArrayList<>();
    int met = 0;
    for (Goal goal : ALL) {
      Double value = measured.get(goal.figure());
      if (value == null) {
        continue;
      }
      boolean ok = goal.met(value);
      met += ok ? 1 : 0;
      lines.add(
          Map.entry(
              "goal." + goal.figure(),
              String.format(
                  Locale.ROOT,
                  "%s (%.3f %s %s)",
                  ok ? "PASS" : "FAIL",
                  value,
                  goal.atLeast() ? ">=" : "<=",
                  goal.bound())));
    }
    lines.add(
        Map.entry(
            "goals",
            (met == lines.size() ? "PASS" : "FAIL")
                + " ("
                + met
                + " of "
                + lines.size()
                + " met)"));
    return lines;
  }

  /** Largest ÷ smallest; NaN when a value is not positive (nothing to compare). */
  static double spread(List<Double> values) {
    double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    return min > 0 ? max / min : Double.NaN;
  }

  /** {@code a ÷ b}; NaN when b is not positive. */
  static double ratio(double a, double b) {
    return b > 0 ? a / b : Double.NaN;
  }
}
