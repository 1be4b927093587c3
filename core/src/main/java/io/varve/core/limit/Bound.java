package io.varve.core.limit;

/**
 * A live view of one bound on work in flight: what it allows at once, what is taken now, and in
 * which unit. Every limiter of a deployable exposes its bounds this way, so that one set of gauges
 * and one refusal text describe them all, whatever their policy when full (wait in order, or refuse
 * at once). Reads are snapshots: two calls may see different moments.
 */
public interface Bound {

  /** What a bound counts. */
  enum Unit {
    /** Operations: calls, batches, fetches. */
    CALLS,
    /** Bytes held by the operations in flight, as estimated when they were taken. */
    BYTES;

    /** The unit as metrics name it: {@code calls}, {@code bytes}. */
    public String metricName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The bound's name, lower case with underscores: a metric label, and a refusal's subject. */
  String name();

  Unit unit();

  /** What the bound allows at once, in {@link #unit()}. */
  long capacity();

  /**
   * What is taken now, in {@link #unit()}; may exceed {@link #capacity()} when one operation does.
   */
  long inUse();
}
