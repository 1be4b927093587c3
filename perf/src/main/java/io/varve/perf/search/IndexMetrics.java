package io.varve.perf.search;

import io.varve.local.server.ServerMetrics;
import java.net.URI;
import java.util.List;

/**
 * The server's index metrics ({@code GET /metrics}, read by {@link ServerMetrics}), which the
 * benchmark follows while the events are indexed.
 */
final class IndexMetrics {

  private static final List<String> INDEX_METRICS =
      List.of(
          "varve_index_queue_events",
          "varve_index_indexed_events_total",
          "varve_index_dropped_events_total",
          "varve_index_failed_events_total",
          "varve_index_skipped_events_total",
          "varve_index_unparsable_values_total");

  private final URI endpoint;

  IndexMetrics(String apiAddress) {
    this.endpoint = URI.create(apiAddress);
  }

  /** Every metric now. */
  ServerMetrics read() throws Exception {
    return ServerMetrics.scrape(endpoint);
  }

  /** The index metrics, {@code name=value, ...}, for a failure message. */
  String describeIndexing() {
    try {
      ServerMetrics m = read();
      StringBuilder s = new StringBuilder();
      for (String name : INDEX_METRICS) {
        s.append(s.length() == 0 ? "" : ", ").append(name).append('=').append((long) m.sum(name));
      }
      return s.toString();
    } catch (Exception e) {
      return "(unavailable: " + e + ")";
    }
  }
}
