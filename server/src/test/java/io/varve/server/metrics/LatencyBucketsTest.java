package io.varve.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.linecorp.armeria.common.metric.MoreMeters;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LatencyBucketsTest {

  private static PrometheusMeterRegistry registry() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    LatencyBuckets.apply(registry);
    return registry;
  }

  @Test
  void the_api_latency_is_published_in_buckets_that_add_up_across_servers_not_as_quantiles() {
    PrometheusMeterRegistry registry = registry();
    // made as Armeria makes its request timers: with its default quantiles
    Timer total =
        MoreMeters.newTimer(registry, "varve.api.total.duration", Tags.of("method", "PutItems"));
    total.record(3, TimeUnit.MILLISECONDS);
    total.record(40, TimeUnit.MILLISECONDS);
    total.record(2, TimeUnit.MINUTES);

    String scraped = registry.scrape();
    assertThat(scraped)
        .doesNotContain("quantile=")
        .contains("varve_api_total_duration_seconds_bucket{method=\"PutItems\",le=\"0.002\"} 0")
        .contains("varve_api_total_duration_seconds_bucket{method=\"PutItems\",le=\"0.005\"} 1")
        .contains("varve_api_total_duration_seconds_bucket{method=\"PutItems\",le=\"0.05\"} 2")
        .contains("varve_api_total_duration_seconds_bucket{method=\"PutItems\",le=\"60.0\"} 2")
        .contains("varve_api_total_duration_seconds_bucket{method=\"PutItems\",le=\"+Inf\"} 3")
        .contains("varve_api_total_duration_seconds_count{method=\"PutItems\"} 3");
    assertThat(scraped.lines().filter(l -> l.startsWith("varve_api_total_duration_seconds_bucket")))
        .hasSize(LatencyBuckets.BOUNDS.length + 1);
  }

  @Test
  void the_apis_other_distributions_keep_count_sum_and_max_only() {
    PrometheusMeterRegistry registry = registry();
    DistributionSummary length =
        MoreMeters.newDistributionSummary(
            registry, "varve.api.request.length", Tags.of("method", "PutItems"));
    length.record(10_240);
    Timer request =
        MoreMeters.newTimer(registry, "varve.api.request.duration", Tags.of("method", "PutItems"));
    request.record(1, TimeUnit.MILLISECONDS);

    String scraped = registry.scrape();
    assertThat(scraped)
        .doesNotContain("quantile=")
        .doesNotContain("_bucket")
        .contains("varve_api_request_length_sum{method=\"PutItems\"} 10240.0")
        .contains("varve_api_request_duration_seconds_count{method=\"PutItems\"} 1");
  }

  @Test
  void the_drivers_requests_are_published_in_the_same_buckets() {
    PrometheusMeterRegistry registry = registry();
    CassandraRequestMetrics tracker = new CassandraRequestMetrics(registry);
    tracker.onSuccess(SimpleStatement.newInstance("SELECT 1"), 700_000, null, null, "");

    assertThat(registry.scrape())
        .doesNotContain("quantile=")
        .contains(
            "varve_cassandra_requests_seconds_bucket{cluster=\"default\",operation=\"read\","
                + "outcome=\"success\",le=\"5.0E-4\"} 0")
        .contains(
            "varve_cassandra_requests_seconds_bucket{cluster=\"default\",operation=\"read\","
                + "outcome=\"success\",le=\"0.001\"} 1");
  }
}
