package io.varve.perf.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals of a benchmark's figures and their verdicts, printed as {@code goal.<figure>=PASS|FAIL
 * (<value> <op> <bound>)} lines and one {@code goals=PASS|FAIL (<n> of <m> met)}. A goal whose
 * figure was not measured gets no line: there is no verdict without a number. A verdict is a
 * figure, not an exit status.
 */
public final class Goals {

  /** One goal: a figure and the bound it must keep. */
  public record Goal(String figure, boolean atLeast, double bound) {

    boolean met(double value) {
      return !Double.isNaN(value) && (atLeast ? value >= bound : value <= bound);
    }
  }

  private final List<Goal> all;

  /** These goals, in the order their verdicts are printed. */
  public Goals(List<Goal> all) {
    this.all = List.copyOf(all);
  }

  /** The figures that have a goal. */
  public List<String> figures() {
    return all.stream().map(Goal::figure).toList();
  }

  /**
   * The verdict lines ({@code key}, {@code value}) for the goals whose figure is in {@code
   * measured}, then the overall one.
   */
  public List<Map.Entry<String, String>> verdicts(Map<String, Double> measured) {
    List<Map.Entry<String, String>> lines = new ArrayList<>();
    int met = 0;
    for (Goal goal : all) {
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

  /**
   * Prints the verdicts of {@code measured} on {@code out}, after the figures: {@link
   * #verdicts(Map)}.
   */
  public void print(Map<String, Double> measured, Figures out) {
    verdicts(measured).forEach(line -> out.put(line.getKey(), line.getValue()));
  }

  /** Largest ÷ smallest; NaN when a value is not positive (nothing to compare). */
  public static double spread(List<Double> values) {
    double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    return min > 0 ? max / min : Double.NaN;
  }

  /** {@code a ÷ b}; NaN when b is not positive. */
  public static double ratio(double a, double b) {
    return b > 0 ? a / b : Double.NaN;
  }
}
