package io.varve.local.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parser of the server's {@code /metrics} text, on text shaped as the server exposes it. */
class ServerMetricsTest {

  /** As the server's Prometheus registry writes it: HELP/TYPE lines, counters, a summary. */
  private static final String EXPOSITION =
      """
      # HELP varve_kv_read_rows_fetched_total Rows GetItems fetched in the shape returned
      # TYPE varve_kv_read_rows_fetched_total counter
      varve_kv_read_rows_fetched_total 1234.0
      # HELP varve_api_total_duration_seconds Time from a request's arrival to its answer
      # TYPE varve_api_total_duration_seconds summary
      varve_api_total_duration_seconds{http_status="200",method="ReadEventRecords",quantile="0.5"} 0.001966
      varve_api_total_duration_seconds{http_status="200",method="ReadEventRecords",quantile="0.99"} 0.012582912
      varve_api_total_duration_seconds_count{http_status="200",method="ReadEventRecords"} 3000
      varve_api_total_duration_seconds{http_status="429",method="ReadEventRecords",quantile="0.99"} NaN
      # TYPE varve_index_queue_events gauge
      varve_index_queue_events{namespace="a"} 3.0
      varve_index_queue_events{namespace="b"} 4.5
      varve_index_queue_events_max{namespace="b"} 9.0
      http_request_seconds_bucket{le="+Inf",path="/v1/GetItems"} 17 1732420000000
      jvm_info{vendor="Eclipse \\"Adoptium\\"",note="a\\\\b\\nc, {x=1}"} 1.0
      """;

  @Test
  void reads_a_counter_by_its_exposed_name() {
    ServerMetrics metrics = ServerMetrics.parse(EXPOSITION);

    assertThat(metrics.sum("varve_kv_read_rows_fetched_total")).isEqualTo(1234.0);
  }

  @Test
  void sums_every_series_of_a_metric_and_only_of_that_metric() {
    ServerMetrics metrics = ServerMetrics.parse(EXPOSITION);

    assertThat(metrics.sum("varve_index_queue_events")).isEqualTo(7.5);
    assertThat(metrics.sum("varve_index_queue_events_max")).isEqualTo(9.0);
    assertThat(metrics.sum("varve_kv_read_items_returned_total")).isZero();
  }

  @Test
  void finds_the_sample_whose_labels_include_the_ones_asked_for() {
    ServerMetrics metrics = ServerMetrics.parse(EXPOSITION);

    assertThat(
            metrics.value(
                "varve_api_total_duration_seconds",
                Map.of("method", "ReadEventRecords", "http_status", "200", "quantile", "0.99")))
        .hasValue(0.012582912);
    assertThat(
            metrics
                .value(
                    "varve_api_total_duration_seconds",
                    Map.of("http_status", "429", "quantile", "0.99"))
                .getAsDouble())
        .isNaN();
    assertThat(metrics.value("varve_api_total_duration_seconds", Map.of("method", "GetItems")))
        .isEmpty();
  }

  @Test
  void reads_infinity_labels_timestamps_and_escaped_label_values() {
    ServerMetrics metrics = ServerMetrics.parse(EXPOSITION);

    assertThat(metrics.value("http_request_seconds_bucket", Map.of("le", "+Inf"))).hasValue(17);
    MetricSample info =
        metrics.samples().stream().filter(s -> s.name().equals("jvm_info")).findFirst().get();
    assertThat(info.labels())
        .containsExactly(
            Map.entry("vendor", "Eclipse \"Adoptium\""), Map.entry("note", "a\\b\nc, {x=1}"));
    assertThat(metrics.samples()).hasSize(10);
  }

  @Test
  void refuses_a_line_that_is_not_a_sample_naming_its_number() {
    assertThatThrownBy(() -> ServerMetrics.parse("# TYPE x counter\nx_total one\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("metrics line 2")
        .hasMessageContaining("not a number: one");
    assertThatThrownBy(() -> ServerMetrics.parse("x{a=\"1} 2\n"))
        .hasMessageContaining("unterminated label value");
  }

  private static String latency(double[] cumulative, String labels) {
    String[] bounds = {"0.001", "0.01", "0.1", "+Inf"};
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < bounds.length; i++) {
      text.append("t_seconds_bucket{")
          .append(labels)
          .append(",le=\"")
          .append(bounds[i])
          .append("\"} ")
          .append(cumulative[i])
          .append('\n');
    }
    return text.toString();
  }

  @Test
  void estimates_a_quantile_from_buckets_summed_over_series_as_prometheus_does() {
    // 100 calls: 10 under 1 ms, 80 more under 10 ms, 10 more under 100 ms
    ServerMetrics one =
        ServerMetrics.parse(latency(new double[] {10, 90, 100, 100}, "method=\"Put\""));
    assertThat(one.histogramQuantile("t_seconds", 0.5, Map.of(), null).getAsDouble())
        .isCloseTo(0.001 + 0.009 * 40 / 80, within(1e-9));
    assertThat(one.histogramQuantile("t_seconds", 0.05, Map.of(), null).getAsDouble())
        .isCloseTo(0.0005, within(1e-9));
    assertThat(one.histogramQuantile("t_seconds", 0.99, Map.of(), null).getAsDouble())
        .isCloseTo(0.01 + 0.09 * 9 / 10, within(1e-9));

    // two series with the label asked for add up; another method's calls are left out
    ServerMetrics two =
        ServerMetrics.parse(
            latency(new double[] {10, 90, 100, 100}, "method=\"Put\"")
                + latency(new double[] {0, 0, 0, 100}, "method=\"Get\"")
                + latency(new double[] {10, 90, 100, 100}, "method=\"Put\",status=\"500\""));
    assertThat(two.histogramQuantile("t_seconds", 0.5, Map.of("method", "Put"), null).getAsDouble())
        .isCloseTo(0.001 + 0.009 * (100 - 20) / 160, within(1e-9));
    // beyond the largest finite bound: that bound
    assertThat(two.histogramQuantile("t_seconds", 0.5, Map.of("method", "Get"), null))
        .hasValue(0.1);
  }

  @Test
  void a_quantile_since_an_earlier_reading_counts_only_the_calls_in_between() {
    ServerMetrics before =
        ServerMetrics.parse(latency(new double[] {100, 100, 100, 100}, "method=\"Put\""));
    ServerMetrics after =
        ServerMetrics.parse(latency(new double[] {100, 200, 200, 200}, "method=\"Put\""));

    assertThat(after.histogramQuantile("t_seconds", 0.5, Map.of(), before).getAsDouble())
        .isCloseTo(0.001 + 0.009 * 50 / 100, within(1e-9));
    assertThat(before.histogramQuantile("t_seconds", 0.5, Map.of(), before)).isEmpty();
    assertThat(before.histogramQuantile("missing", 0.5, Map.of(), null)).isEmpty();
  }
}
