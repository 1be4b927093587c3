package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The connector's tuning keys a migrator user sets, mapped to the writer's and the reader's own
 * keys, or named in a warning: none is silently ignored.
 */
class ConnectorKeysTest {

  private static final String SIDES =
      "source:\n  type: cassandra\n  host: 10.0.0.1\n  keyspace: ks\n  table: a\n"
          + "target:\n  type: scylla\n  host: 10.0.0.2\n  keyspace: ks\n  table: b\n";

  @Test
  void the_spark_sections_output_and_input_keys_set_the_writer_and_the_reader() {
    JobConfig c =
        JobConfigLoader.parse(
            SIDES
                + "spark:\n"
                + "  spark.cassandra.output.concurrent.writes: 32\n"
                + "  spark.cassandra.output.batch.size.rows: 50\n"
                + "  spark.cassandra.output.batch.size.bytes: 8192\n"
                + "  spark.cassandra.output.batch.grouping.key: partition\n"
                + "  spark.cassandra.input.fetch.size_in_rows: 2000\n");

    assertThat(c.writer()).isEqualTo(new JobConfig.Writer(32, 50, 8192, 1));
    assertThat(c.source().fetchSize()).isEqualTo(2000);
    assertThat(c.warnings()).isEmpty();
  }

  @Test
  void a_key_of_the_job_file_wins_and_the_connector_key_it_overrides_is_named() {
    JobConfig c =
        JobConfigLoader.parse(
            SIDES.replace(
                    "  table: b\n",
                    "  table: b\n  options:\n    spark.cassandra.output.concurrent.writes: 16\n")
                + "writer:\n  maxInFlight: 64\n"
                + "spark:\n  spark.cassandra.output.concurrent.writes: 8\n");

    assertThat(c.writer().maxInFlight()).isEqualTo(64);
    assertThat(c.warnings())
        .containsExactly(
            "spark.cassandra.output.concurrent.writes has no effect: writer.maxInFlight is set in"
                + " the job file and wins");
  }

  @Test
  void a_sides_options_win_over_the_common_ones_and_spark_submit_over_the_spark_section() {
    String key = "spark.cassandra.output.concurrent.writes";
    String before = System.getProperty(key);
    System.setProperty(key, "12");
    try {
      JobConfig submitted = JobConfigLoader.parse(SIDES + "spark:\n  " + key + ": 8\n");
      JobConfig side =
          JobConfigLoader.parse(
              SIDES.replace("  table: b\n", "  table: b\n  options:\n    " + key + ": 20\n")
                  + "spark:\n  "
                  + key
                  + ": 8\n");

      assertThat(submitted.writer().maxInFlight()).isEqualTo(12);
      assertThat(side.writer().maxInFlight()).isEqualTo(20);
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }

  @Test
  void keys_without_a_counterpart_and_grouping_none_are_named_in_warnings() {
    JobConfig c =
        JobConfigLoader.parse(
            SIDES
                + "spark:\n"
                + "  spark.cassandra.input.split.size_in_mb: 64\n"
                + "  spark.cassandra.output.ignoreNulls: true\n"
                + "  spark.cassandra.output.batch.grouping.key: none\n");

    assertThat(c.writer()).isEqualTo(new JobConfig.Writer(128, 100, 4096, 10));
    assertThat(c.source().splitSizeMb()).as("split.size_in_mb is mapped").isEqualTo(64);
    assertThat(c.warnings())
        .noneMatch(w -> w.startsWith("spark.cassandra.input.split.size_in_mb"))
        .anyMatch(w -> w.startsWith("spark.cassandra.output.ignoreNulls has no effect here"))
        .anyMatch(
            w -> w.startsWith("spark.cassandra.output.batch.grouping.key: none has no effect"));
  }

  @Test
  void a_connector_value_out_of_range_is_refused_naming_the_connector_key() {
    assertThatThrownBy(
            () ->
                JobConfigLoader.parse(
                    SIDES + "spark:\n  spark.cassandra.output.concurrent.writes: lots\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("spark.cassandra.output.concurrent.writes: lots")
        .hasMessageContaining("it sets writer.maxInFlight");
    assertThatThrownBy(
            () ->
                JobConfigLoader.parse(
                    SIDES + "spark:\n  spark.cassandra.output.batch.grouping.key: rack\n"))
        .hasMessageContaining("partition, replica_set or none");
  }
}
