package io.varve.core.partitioning;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The partition sizes of one slice table, as the control plane measured them once the slice could
 * no longer receive writes: how many rows each partition holds, counted by the store, over the
 * whole table or over a random share of its token ranges ({@code sampledFraction}), and the mean
 * size of a row, from a sample of rows read back. A partition's bytes are its rows times that mean.
 *
 * @param measuredAt when the measurement ended
 * @param sampledFraction the share of the table's token ranges counted: 1 when all of it
 * @param partitions partitions counted
 * @param rows rows counted
 * @param meanRowBytes mean bytes of a row (its clustering key, value and metadata) in the sample
 * @param rowsLog2 the histogram: {@code rowsLog2[i]} partitions held {@code [2^i, 2^(i+1))} rows
 * @param p50Rows median rows per counted partition
 * @param p99Rows 99th percentile of rows per counted partition
 * @param maxRows rows of the largest counted partition
 * @param densestSeries the time series of the largest counted partition (at most {@value
 *     #MAX_SERIES_CHARS} characters kept)
 */
public record SliceHistogram(
    Instant measuredAt,
    double sampledFraction,
    long partitions,
    long rows,
    long meanRowBytes,
    long[] rowsLog2,
    long p50Rows,
    long p99Rows,
    long maxRows,
    String densestSeries) {

  /** Characters of the densest series' id kept: enough to recognise it. */
  public static final int MAX_SERIES_CHARS = 256;

  public SliceHistogram {
    if (!(sampledFraction > 0 && sampledFraction <= 1)) {
      throw new IllegalArgumentException("sampled fraction " + sampledFraction + " not in (0, 1]");
    }
    if (partitions < 0 || rows < partitions || meanRowBytes < 0) {
      throw new IllegalArgumentException(
          "histogram of " + partitions + " partitions, " + rows + " rows");
    }
    rowsLog2 = rowsLog2.clone();
    if (densestSeries.length() > MAX_SERIES_CHARS) {
      densestSeries = densestSeries.substring(0, MAX_SERIES_CHARS);
    }
  }

  /** The histogram of {@code counts}, the rows of each counted partition. */
  public static SliceHistogram of(
      Instant measuredAt,
      double sampledFraction,
      long[] counts,
      long meanRowBytes,
      String densestSeries) {
    long[] sorted = counts.clone();
    Arrays.sort(sorted);
    long[] log2 = new long[64];
    int top = 0;
    long rows = 0;
    for (long c : sorted) {
      int i = 63 - Long.numberOfLeadingZeros(Math.max(1, c));
      log2[i]++;
      top = Math.max(top, i + 1);
      rows += c;
    }
    return new SliceHistogram(
        measuredAt,
        sampledFraction,
        sorted.length,
        rows,
        meanRowBytes,
        Arrays.copyOf(log2, top),
        quantile(sorted, 0.5),
        quantile(sorted, 0.99),
        sorted.length == 0 ? 0 : sorted[sorted.length - 1],
        densestSeries);
  }

  private static long quantile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
  }

  @Override
  public long[] rowsLog2() {
    return rowsLog2.clone();
  }

  public long p50Bytes() {
    return p50Rows * meanRowBytes;
  }

  public long p99Bytes() {
    return p99Rows * meanRowBytes;
  }

  public long maxBytes() {
    return maxRows * meanRowBytes;
  }

  /**
   * The stored form: {@code key=value} fields separated by spaces, the series id in URL-safe
   * base64. Read back by {@link #parse}; a later version may add fields, which older ones ignore.
   */
  public String format() {
    StringBuilder log2 = new StringBuilder();
    for (long n : rowsLog2) {
      log2.append(log2.isEmpty() ? "" : ",").append(n);
    }
    return "v=1 at="
        + measuredAt
        + " fraction="
        + sampledFraction
        + " partitions="
        + partitions
        + " rows="
        + rows
        + " rowBytes="
        + meanRowBytes
        + " p50="
        + p50Rows
        + " p99="
        + p99Rows
        + " max="
        + maxRows
        + " log2="
        + log2
        + " densest="
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(densestSeries.getBytes(StandardCharsets.UTF_8));
  }

  /** A stored histogram; empty when the text is not one (a later, incompatible version). */
  public static Optional<SliceHistogram> parse(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : text.trim().split(" +")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        fields.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    if (!"1".equals(fields.get("v"))) {
      return Optional.empty();
    }
    try {
      String log2 = fields.get("log2");
      long[] buckets =
          log2.isEmpty()
              ? new long[0]
              : Arrays.stream(log2.split(",")).mapToLong(Long::parseLong).toArray();
      return Optional.of(
          new SliceHistogram(
              Instant.parse(fields.get("at")),
              Double.parseDouble(fields.get("fraction")),
              Long.parseLong(fields.get("partitions")),
              Long.parseLong(fields.get("rows")),
              Long.parseLong(fields.get("rowBytes")),
              buckets,
              Long.parseLong(fields.get("p50")),
              Long.parseLong(fields.get("p99")),
              Long.parseLong(fields.get("max")),
              new String(
                  Base64.getUrlDecoder().decode(fields.get("densest")), StandardCharsets.UTF_8)));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SliceHistogram h && format().equals(h.format());
  }

  @Override
  public int hashCode() {
    return format().hashCode();
  }

  @Override
  public String toString() {
    return format();
  }
}
