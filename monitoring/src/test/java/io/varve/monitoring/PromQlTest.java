package io.varve.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromQlTest {

  @Test
  void finds_the_metrics_of_an_expression_and_not_its_functions_labels_or_keywords() {
    assertThat(
            PromQl.metricNames(
                "sum by (job, instance, method) (rate(varve_api_requests_total{http_status=~\"5..\","
                    + " method=~\"$method\"}[5m])) / on (job) group_left (x)"
                    + " sum without (le) (rate(varve_api_requests_total[$__rate_interval]))"
                    + " > bool 0.05 or vector(0) and time() - varve_background_last_success_seconds"
                    + " offset 5m > 1e3 unless max(up)"))
        .containsExactly("up", "varve_api_requests_total", "varve_background_last_success_seconds");
  }

  @Test
  void a_name_in_a_string_or_a_label_value_is_no_metric() {
    assertThat(
            PromQl.metricNames(
                "label_replace(jvm_gc_overhead{gc=\"G1 Young\"}, \"dst\", \"$1\", \"src\", \"(x_y)\")"))
        .containsExactly("jvm_gc_overhead");
  }

  @Test
  void replaces_grafanas_variables_and_refuses_one_it_does_not_know() {
    assertThat(
            PromQl.substitute(
                "rate(x{instance=~\"$instance\", namespace=~\"${namespace}\","
                    + " method=~\"[[method]]\"}[$__rate_interval])"))
        .isEqualTo("rate(x{instance=~\".*\", namespace=~\".*\", method=~\".*\"}[30s])");
    assertThatThrownBy(() -> PromQl.substitute("x{cluster=~\"$cluster\"}"))
        .hasMessageContaining("$cluster");
  }
}
