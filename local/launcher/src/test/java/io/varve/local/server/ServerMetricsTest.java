package io.varve.local.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
