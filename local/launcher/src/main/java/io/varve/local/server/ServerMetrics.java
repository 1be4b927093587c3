package io.varve.local.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * One reading of the Varve server's Prometheus metrics ({@code GET /metrics}, the text exposition
 * format 0.0.4), for the benchmarks and reliability runs that watch a server from outside.
 *
 * <p>The scrape speaks HTTP/1.1: the JDK client's default, an h2c upgrade, has been seen to lose
 * the framing of a large {@code /metrics} answer. Immutable and thread-safe.
 */
public final class ServerMetrics {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();

  private final List<MetricSample> samples;

  private ServerMetrics(List<MetricSample> samples) {
    this.samples = List.copyOf(samples);
  }

  /** Reads the metrics of the server of this process. */
  public static ServerMetrics scrape(LocalVarveServer server)
      throws IOException, InterruptedException {
    return scrape(server.settings().endpoint());
  }

  /**
   * Reads the metrics of the server whose API answers at {@code endpoint} ({@code
   * http://host:port}).
   *
   * @throws IOException when the server does not answer within 10 s, answers another status than
   *     200, or answers a text that is not the exposition format
   */
  public static ServerMetrics scrape(URI endpoint) throws IOException, InterruptedException {
    URI uri = endpoint.resolve("/metrics");
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("Accept", "text/plain; version=0.0.4")
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + uri + " answered HTTP " + response.statusCode());
    }
    try {
      return parse(response.body());
    } catch (IllegalArgumentException e) {
      throw new IOException("GET " + uri + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses an exposition text: comment lines ({@code # HELP}, {@code # TYPE}) and blank lines are
   * skipped, every other line is a sample.
   *
   * @throws IllegalArgumentException naming the line number when a line is not a sample
   */
  public static ServerMetrics parse(String text) {
    List<MetricSample> samples = new ArrayList<>();
    int number = 0;
    for (String line : text.split("\n", -1)) {
      number++;
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      samples.add(MetricSample.parse(trimmed, number));
    }
    return new ServerMetrics(samples);
  }

  /** Every sample, in the order of the text. */
  public List<MetricSample> samples() {
    return samples;
  }

  /**
   * The value of the first sample of {@code metric} (the name as exposed, e.g. {@code
   * varve_kv_read_rows_fetched_total}) whose labels include all of {@code labels}; empty when none
   * does.
   */
  public OptionalDouble value(String metric, Map<String, String> labels) {
    for (MetricSample s : samples) {
      if (s.name().equals(metric) && s.labels().entrySet().containsAll(labels.entrySet())) {
        return OptionalDouble.of(s.value());
      }
    }
    return OptionalDouble.empty();
  }

  /**
   * The {@code q} quantile of histogram {@code histogram} (the name without {@code _bucket}) over
   * the calls recorded since {@code since} (null: since the server started), its buckets summed
   * over every series whose labels include all of {@code labels}. Estimated as Prometheus's {@code
   * histogram_quantile} does: linearly within the bucket the quantile falls in; the largest finite
   * bound when it falls beyond it. Empty when no call was recorded.
   */
  public OptionalDouble histogramQuantile(
      String histogram, double q, Map<String, String> labels, ServerMetrics since) {
    TreeMap<Double, Double> counts = buckets(histogram + "_bucket", labels);
    if (since != null) {
      since
          .buckets(histogram + "_bucket", labels)
          .forEach((le, n) -> counts.merge(le, -n, Double::sum));
    }
    Entry<Double, Double> all = counts.lastEntry();
    if (all == null || all.getValue() <= 0) {
      return OptionalDouble.empty();
    }
    double rank = q * all.getValue();
    double lower = 0;
    double below = 0;
    for (Entry<Double, Double> bucket : counts.entrySet()) {
      double le = bucket.getKey();
      double cumulative = bucket.getValue();
      if (cumulative >= rank) {
        if (Double.isInfinite(le)) {
          return OptionalDouble.of(lower);
        }
        double inBucket = cumulative - below;
        return OptionalDouble.of(
            inBucket <= 0 ? le : lower + (le - lower) * (rank - below) / inBucket);
      }
      lower = le;
      below = cumulative;
    }
    return OptionalDouble.of(lower);
  }

  /** The cumulative counts by upper bound of the matching series of {@code bucketMetric}. */
  private TreeMap<Double, Double> buckets(String bucketMetric, Map<String, String> labels) {
    TreeMap<Double, Double> counts = new TreeMap<>();
    for (MetricSample s : samples) {
      if (s.name().equals(bucketMetric)
          && s.labels().containsKey("le")
          && s.labels().entrySet().containsAll(labels.entrySet())) {
        counts.merge(MetricSample.number(s.labels().get("le")), s.value(), Double::sum);
      }
    }
    return counts;
  }

  /** The sum of every series of {@code metric}; 0 when the server has none (yet). */
  public double sum(String metric) {
    return samples.stream()
        .filter(s -> s.name().equals(metric))
        .mapToDouble(MetricSample::value)
        .sum();
  }
}
