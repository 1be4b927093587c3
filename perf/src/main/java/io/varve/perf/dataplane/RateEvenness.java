package io.varve.perf.dataplane;

import java.util.List;

/**
 * How evenly a per-second rate held: its mean, its coefficient of variation (standard deviation ÷
 * mean) and its largest deviation from the mean as a share of the mean (0.25: some second was 25 %
 * above or below the mean).
 *
 * @param seconds the seconds the figures are over
 */
record RateEvenness(int seconds, double mean, double cv, double maxDeviation) {

  /** The evenness of these per-second counts; NaN figures when there is no second or no event. */
  static RateEvenness of(List<Long> perSecond) {
    int n = perSecond.size();
    double mean = perSecond.stream().mapToLong(Long::longValue).average().orElse(Double.NaN);
    if (n == 0 || !(mean > 0)) {
      return new RateEvenness(n, mean, Double.NaN, Double.NaN);
    }
    double squares = 0;
    double max = 0;
    for (long v : perSecond) {
      squares += (v - mean) * (v - mean);
      max = Math.max(max, Math.abs(v - mean));
    }
    return new RateEvenness(n, mean, Math.sqrt(squares / n) / mean, max / mean);
  }
}
