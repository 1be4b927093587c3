package io.varve.perf.search;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's Prometheus metrics ({@code GET /metrics}), read by the benchmark to follow the
 * indexing.
 */
final class ServerMetrics {

  private static final List<String> INDEX_METRICS =
      List.of(
          "varve_index_queue_events",
          "varve_index_indexed_events_total",
          "varve_index_dropped_events_total",
          "varve_index_failed_events_total",
          "varve_index_skipped_events_total",
          "varve_index_unparsable_values_total");

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI uri;

  ServerMetrics(String apiAddress) {
    this.uri = URI.create(apiAddress + "/metrics");
  }

  /** The value of every series now, by its line's name and labels. */
  Map<String, Double> read() throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    Map<String, Double> values = new HashMap<>();
    for (String line : response.body().split("\n")) {
      int space = line.lastIndexOf(' ');
      if (line.startsWith("#") || space < 0) {
        continue;
      }
      try {
        values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
      } catch (NumberFormatException e) {
        // not a sample line
      }
    }
    return values;
  }

  /** The sum of a metric's series. */
  static double sum(Map<String, Double> metrics, String name) {
    return metrics.entrySet().stream()
        .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  /** The index metrics, {@code name=value, ...}, for a failure message. */
  String describeIndexing() {
    try {
      Map<String, Double> m = read();
      StringBuilder s = new StringBuilder();
      for (String name : INDEX_METRICS) {
        s.append(s.length() == 0 ? "" : ", ").append(name).append('=').append((long) sum(m, name));
      }
      return s.toString();
    } catch (Exception e) {
      return "(unavailable: " + e + ")";
    }
  }
}
