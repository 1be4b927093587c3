package io.varve.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.WorkloadException;

/**
 * The key distributions of the shipped scenarios, drawn through the real workload (the same code
 * path as a benchmark run), checked statistically.
 */
class KeyDistributionTest {
  private static final int RECORDS = 10_000;
  private static final int DRAWS = 200_000;

  @Test
  void uniform_spreads_evenly() throws Exception {
    Map<String, Integer> counts =
        draw(Map.of("requestdistribution", "uniform", "recordcount", "1000"));
    assertThat(counts).hasSize(1000);
    double expected = DRAWS / 1000.0;
    double chiSquare =
        counts.values().stream().mapToDouble(c -> (c - expected) * (c - expected) / expected).sum();
    // 999 degrees of freedom: mean 999, standard deviation 44.7; five deviations above is p < 1e-6.
    assertThat(chiSquare).isLessThan(999 + 5 * 44.7);
  }

  @Test
  void zipfian_concentrates_on_few_keys() throws Exception {
    Map<String, Integer> counts =
        draw(Map.of("requestdistribution", "zipfian", "recordcount", String.valueOf(RECORDS)));
    // Uniform would give the hottest 1% of keys 1% of the accesses.
    assertThat(topShare(counts, RECORDS / 100)).isGreaterThan(0.10);
  }

  @Test
  void hot_set_gets_its_share_of_accesses() throws Exception {
    Map<String, Integer> counts =
        draw(
            Map.of(
                "requestdistribution",
                "hotset",
                "recordcount",
                String.valueOf(RECORDS),
                "hotset.size",
                "100",
                "hotset.share",
                "0.9",
                "hotset.distribution",
                "uniform"));
    // 200,000 draws at p = 0.9: standard deviation of the share is 0.00067.
    assertThat(topShare(counts, 100)).isBetween(0.895, 0.905);
    // Inside a uniform hot set, each hot key gets about 1,800 accesses.
    List<Integer> hot = counts.values().stream().sorted((a, b) -> b - a).limit(100).toList();
    assertThat(hot.get(99)).isGreaterThan(1_500);
    assertThat(hot.get(0)).isLessThan(2_100);
  }

  @Test
  void zipfian_inside_the_hot_set() throws Exception {
    Map<String, Integer> counts =
        draw(
            Map.of(
                "requestdistribution",
                "hotset",
                "recordcount",
                String.valueOf(RECORDS),
                "hotset.size",
                "100",
                "hotset.share",
                "0.9"));
    assertThat(topShare(counts, 100)).isBetween(0.89, 0.91);
    // The hottest key alone takes far more than a uniform hot set would give it (0.9%).
    assertThat(topShare(counts, 1)).isGreaterThan(0.1);
  }

  @Test
  void single_hot_partition_takes_every_access() throws Exception {
    Map<String, Integer> counts =
        draw(
            Map.of(
                "requestdistribution",
                "hotset",
                "recordcount",
                String.valueOf(RECORDS),
                "hotset.size",
                "1",
                "hotset.share",
                "1.0"));
    assertThat(counts).hasSize(1);
  }

  @Test
  void bad_hot_set_properties_are_named() {
    assertThatThrownBy(
            () ->
                draw(
                    Map.of(
                        "requestdistribution",
                        "hotset",
                        "recordcount",
                        "100",
                        "hotset.size",
                        "101")))
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining("hotset.size=101");
    assertThatThrownBy(
            () ->
                draw(
                    Map.of(
                        "requestdistribution",
                        "hotset",
                        "recordcount",
                        "100",
                        "hotset.share",
                        "1.5")))
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining("hotset.share=1.5");
    assertThatThrownBy(
            () -> draw(Map.of("requestdistribution", "hotset", "hotset.distribution", "latest")))
        .isInstanceOf(WorkloadException.class)
        .hasMessageContaining("hotset.distribution=latest");
  }

  private static double topShare(Map<String, Integer> counts, int keys) {
    long top =
        counts.values().stream()
            .sorted((a, b) -> b - a)
            .limit(keys)
            .mapToLong(Integer::longValue)
            .sum();
    return top / (double) DRAWS;
  }

  /** Runs DRAWS read transactions of the workload and counts the keys they read. */
  private static Map<String, Integer> draw(Map<String, String> overrides) throws Exception {
    Properties p = new Properties();
    p.setProperty("recordcount", String.valueOf(RECORDS));
    p.setProperty("operationcount", String.valueOf(DRAWS));
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.putAll(overrides);
    // YCSB's workloads read its process-wide measurements, which need properties first.
    site.ycsb.measurements.Measurements.setProperties(p);
    SkewedCoreWorkload workload = new SkewedCoreWorkload();
    workload.init(p);
    Object state = workload.initThread(p, 0, 1);
    KeyCounter db = new KeyCounter();
    for (int i = 0; i < DRAWS; i++) {
      workload.doTransaction(db, state);
    }
    return db.counts;
  }

  private static final class KeyCounter extends io.varve.bench.binding.NoopBinding {
    final Map<String, Integer> counts = new HashMap<>();

    @Override
    public Status read(
        String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      counts.merge(key, 1, Integer::sum);
      return Status.OK;
    }
  }
}
