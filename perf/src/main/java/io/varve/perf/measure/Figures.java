package io.varve.perf.measure;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * Prints benchmark figures as {@code key=value} lines, flushed one by one so a long run shows them
 * as they come.
 */
public final class Figures implements AutoCloseable {

  private final PrintStream out;
  private final OutputStream copy;
  private final Set<String> keep;
  private final Map<String, Double> kept;

  private Figures(PrintStream out, OutputStream copy, Set<String> keep, Map<String, Double> kept) {
    this.out = out;
    this.copy = copy;
    this.keep = keep;
    this.kept = kept;
  }

  private Figures(PrintStream out, OutputStream copy) {
    this(out, copy, Set.of(), null);
  }

  /** Figures printed on {@code out}. */
  public Figures(PrintStream out) {
    this(out, null);
  }

  /**
   * Figures printed on standard output and also written to {@code file}, which {@link #close()}
   * closes.
   */
  public static Figures toStandardOutputAnd(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    OutputStream copy = Files.newOutputStream(file);
    return new Figures(
        new PrintStream(new Tee(System.out, copy), true, StandardCharsets.UTF_8), copy);
  }

  /**
   * Figures printed where these are, which also put the value of every figure of {@code keys} (a
   * number) into {@code into}: for a verdict made of figures printed by several phases. Closing it
   * closes nothing.
   */
  public Figures keeping(Collection<String> keys, Map<String, Double> into) {
    return new Figures(out, null, Set.copyOf(keys), into);
  }

  /** {@code key=value}. */
  public void put(String key, Object value) {
    out.println(key + "=" + value);
    out.flush();
  }

  /** {@code key=value}, a whole number. */
  public void put(String key, long value) {
    if (keep.contains(key)) {
      kept.put(key, (double) value);
    }
    put(key, (Object) Long.toString(value));
  }

  /** A figure with three decimals. */
  public void put(String key, double value) {
    if (keep.contains(key)) {
      kept.put(key, value);
    }
    put(key, String.format(Locale.ROOT, "%.3f", value));
  }

  /** p50, p99 and max of a histogram of microseconds, printed in milliseconds. */
  public void latency(String prefix, Histogram micros) {
    put(prefix + ".p50_ms", micros.getValueAtPercentile(50) / 1000.0);
    put(prefix + ".p99_ms", micros.getValueAtPercentile(99) / 1000.0);
    put(prefix + ".max_ms", micros.getMaxValue() / 1000.0);
  }

  /** Closes the file the figures are also written to, if any; standard output stays open. */
  @Override
  public void close() throws IOException {
    if (copy != null) {
      copy.close();
    }
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {

    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }
}
