package io.varve.reshaper.job;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The live line: token ranges done of total, rows, rows per second and the estimated time left,
 * computed from the ranges still to do. Thread-safe.
 */
final class Progress {
  private final String verb;
  private final int totalRanges;
  private final int alreadyDone;
  private final LongSupplier rangesDone;
  private final LongSupplier rows;
  private final long startNanos = System.nanoTime();

  Progress(
      String verb, int totalRanges, int alreadyDone, LongSupplier rangesDone, LongSupplier rows) {
    this.verb = verb;
    this.totalRanges = totalRanges;
    this.alreadyDone = alreadyDone;
    this.rangesDone = rangesDone;
    this.rows = rows;
  }

  double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  String line() {
    long doneNow = rangesDone.getAsLong();
    long done = alreadyDone + doneNow;
    double elapsed = Math.max(elapsedSeconds(), 0.001);
    long rowCount = rows.getAsLong();
    long left = totalRanges - done;
    String eta = doneNow == 0 ? "?" : format(Duration.ofSeconds((long) (elapsed / doneNow * left)));
    return String.format(
        Locale.ROOT,
        "%s: ranges %d/%d (%.1f%%), rows %,d, %,.0f rows/s, elapsed %s, ETA %s",
        verb,
        done,
        totalRanges,
        100.0 * done / totalRanges,
        rowCount,
        rowCount / elapsed,
        format(Duration.ofSeconds((long) elapsed)),
        eta);
  }

  void print(PrintStream out) {
    out.println(line());
    out.flush();
  }

  static String format(Duration d) {
    long s = d.getSeconds();
    return s >= 3600
        ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s % 3600 / 60, s % 60)
        : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
  }
}
