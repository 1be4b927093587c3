package io.varve.bench.capacity;

import java.util.ArrayList;
import java.util.List;

/**
 * The highest target throughput at which an SLA still holds, found by fixed-length runs at rising
 * targets and then a bisection. Pure: the runs are a {@link StepRunner}'s.
 *
 * <ol>
 *   <li><b>Ramp</b>: from {@code start}, each target {@code factor} times the last, while the runs
 *       hold, up to {@code max} (a run held at {@code max}: the capacity is at least that, {@link
 *       Outcome#atMax()}).
 *   <li><b>Down</b>, when the first run fails: each target {@code factor} times smaller, until one
 *       holds or the target falls below {@code min} (then no rate meets the SLA: capacity 0).
 *   <li><b>Bisection</b> between the highest target that held and the lowest that failed, until
 *       they are less than {@code precision} of the one that held apart.
 * </ol>
 *
 * At most {@code maxSteps} runs in all; the capacity is the highest target that held. Each target
 * is run once: a run's verdict is taken as it is, and the noise a single run carries (a percentile
 * that one slow second moves) is what {@code precision} and the runs' length must absorb
 * (docs/bench.md).
 */
public final class CapacitySearch {

  private CapacitySearch() {}

  /**
   * @param start the first target, operations per second
   * @param max the highest target tried
   * @param min the lowest target tried when going down
   * @param factor how much the ramp multiplies (and the way down divides) the target, above 1
   * @param precision when to stop bisecting: the gap over the target that held, in (0, 1)
   * @param maxSteps runs at most
   */
  public record Settings(
      long start, long max, long min, double factor, double precision, int maxSteps) {
    public Settings {
      if (min < 1 || start < min || max < start) {
        throw new IllegalArgumentException(
            "targets: min " + min + " <= start " + start + " <= max " + max);
      }
      if (!(factor > 1) || !(precision > 0 && precision < 1) || maxSteps < 1) {
        throw new IllegalArgumentException(
            "factor " + factor + ", precision " + precision + ", steps " + maxSteps);
      }
    }
  }

  /** Where in the search a run was. */
  public enum Phase {
    RAMP,
    DOWN,
    BISECT
  }

  /** One run and whether the SLA held in it. */
  public record Step(int index, Phase phase, long target, boolean held) {}

  /** Runs one step: a run at {@code target}, judged. */
  @FunctionalInterface
  public interface StepRunner {
    boolean holds(int index, Phase phase, long target) throws Exception;
  }

  /**
   * @param capacity the highest target that held; 0 when none did
   * @param steps every run, in order
   * @param atMax whether a run held at {@code max}: the capacity may be higher
   */
  public record Outcome(long capacity, List<Step> steps, boolean atMax) {}

  public static Outcome search(Settings s, StepRunner runner) throws Exception {
    List<Step> steps = new ArrayList<>();
    long held = 0;
    long failed = 0;
    boolean atMax = false;
    long target = s.start();
    while (steps.size() < s.maxSteps()) {
      boolean ok = run(steps, runner, Phase.RAMP, target);
      if (!ok) {
        failed = target;
        break;
      }
      held = target;
      if (target >= s.max()) {
        atMax = true;
        break;
      }
      target = Math.min(s.max(), Math.max(target + 1, (long) Math.ceil(target * s.factor())));
    }
    while (held == 0 && failed > 0 && steps.size() < s.maxSteps()) {
      long lower = (long) Math.floor(failed / s.factor());
      if (lower < s.min() || lower >= failed) {
        break;
      }
      if (run(steps, runner, Phase.DOWN, lower)) {
        held = lower;
      } else {
        failed = lower;
      }
    }
    while (held > 0
        && failed > held
        && failed - held > s.precision() * held
        && steps.size() < s.maxSteps()) {
      long mid = held + (failed - held) / 2;
      if (mid == held) {
        break;
      }
      if (run(steps, runner, Phase.BISECT, mid)) {
        held = mid;
      } else {
        failed = mid;
      }
    }
    return new Outcome(held, List.copyOf(steps), atMax);
  }

  private static boolean run(List<Step> steps, StepRunner runner, Phase phase, long target)
      throws Exception {
    int index = steps.size() + 1;
    boolean ok = runner.holds(index, phase, target);
    steps.add(new Step(index, phase, target, ok));
    return ok;
  }
}
