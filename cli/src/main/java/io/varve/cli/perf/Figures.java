package io.varve.cli.perf;

import java.io.PrintStream;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** Prints benchmark figures as {@code key=value} lines. */
final class Figures {

  private final PrintStream out;

  Figures(PrintStream out) {
    this.out = out;
  }

  void put(String key, Object value) {
    out.println(key + "=" + value);
    out.flush();
  }

  void put(String key, long value) {
    put(key, (Object) Long.toString(value));
  }

  void put(String key, double value) {
    put(key, String.format(Locale.ROOT, "%.3f", value));
  }

  /** p50, p99 and max of a histogram of microseconds, printed in milliseconds. */
  void latency(String prefix, Histogram micros) {
    put(prefix + ".p50_ms", micros.getValueAtPercentile(50) / 1000.0);
    put(prefix + ".p99_ms", micros.getValueAtPercentile(99) / 1000.0);
    put(prefix + ".max_ms", micros.getMaxValue() / 1000.0);
  }
}
