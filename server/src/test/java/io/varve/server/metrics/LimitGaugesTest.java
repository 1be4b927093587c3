package io.varve.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.varve.core.limit.AsyncLimiter;
import io.varve.server.admission.ByteBudget;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class LimitGaugesTest {

  @Test
  void a_queueing_limiter_publishes_calls_bytes_and_waiting_under_its_name() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AsyncLimiter limiter = new AsyncLimiter("cassandra_writes", 1, 1000);
    LimitGauges.register(registry, limiter);
    CompletableFuture<Void> first = new CompletableFuture<>();
    limiter.submit(300, () -> first);
    CompletionStage<Void> second =
        limiter.submit(200, () -> CompletableFuture.completedFuture(null));

    String scrape = registry.scrape();
    assertThat(scrape)
        .contains("varve_limit_inuse_calls{limit=\"cassandra_writes\"} 1.0")
        .contains("varve_limit_inuse_bytes{limit=\"cassandra_writes\"} 300.0")
        .contains("varve_limit_capacity_calls{limit=\"cassandra_writes\"} 1.0")
        .contains("varve_limit_capacity_bytes{limit=\"cassandra_writes\"} 1000.0")
        .contains("varve_limit_waiting_calls{limit=\"cassandra_writes\"} 1.0");

    first.complete(null);
    assertThat(second.toCompletableFuture()).isCompleted();
    assertThat(registry.scrape())
        .contains("varve_limit_inuse_calls{limit=\"cassandra_writes\"} 0.0")
        .contains("varve_limit_inuse_bytes{limit=\"cassandra_writes\"} 0.0")
        .contains("varve_limit_waiting_calls{limit=\"cassandra_writes\"} 0.0");
  }

  @Test
  void an_admission_budget_publishes_its_bytes_under_admission_and_its_kind() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ByteBudget budget = new ByteBudget("write", 4096);
    LimitGauges.register(registry, budget);
    try (ByteBudget.Permit permit = budget.open()) {
      assertThat(permit.tryAdd(1024)).isTrue();
      assertThat(registry.scrape())
          .contains("varve_limit_inuse_bytes{limit=\"admission_write\"} 1024.0")
          .contains("varve_limit_capacity_bytes{limit=\"admission_write\"} 4096.0")
          .doesNotContain("varve_limit_waiting_calls");
    }
    assertThat(registry.scrape())
        .contains("varve_limit_inuse_bytes{limit=\"admission_write\"} 0.0");
  }

  @Test
  void a_limiter_without_a_byte_bound_publishes_no_byte_gauges() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    LimitGauges.register(registry, new AsyncLimiter("raw", 8));
    assertThat(registry.scrape())
        .contains("varve_limit_capacity_calls{limit=\"raw\"} 8.0")
        .doesNotContain("varve_limit_capacity_bytes");
  }
}
