package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobConfigLoaderTest {
  private static final String SIDES =
      "source:\n  type: cassandra\n  host: 10.0.0.1\n"
          + "  keyspace: ks\n  table: ids_by_partnerid\n"
          + "target:\n  type: scylla\n  host: 10.0.0.2\n  keyspace: ks\n  table: compact\n";

  @Test
  void reads_a_scylla_migrator_file_with_its_defaults() {
    JobConfig c =
        JobConfigLoader.parse(
            SIDES
                + "renames:\n  - from: date\n    to: seen_date\n"
                + "savepoints:\n  path: /app/savepoints\n  intervalSeconds: 300\n"
                + "  enableParquetFileTracking: true\n"
                + "skipTokenRanges: []\n");
    assertThat(c.source().port()).isEqualTo(9042);
    assertThat(c.source().consistencyLevel()).isEqualTo("LOCAL_QUORUM");
    assertThat(c.target().consistencyLevel()).isEqualTo("LOCAL_QUORUM");
    assertThat(c.target().isScylla()).isTrue();
    assertThat(c.renames()).containsExactly(new JobConfig.Rename("date", "seen_date"));
    assertThat(c.savepoints()).isEqualTo(new JobConfig.Savepoints("/app/savepoints", 300));
    assertThat(c.reshape().onConflict()).isNull();
    assertThat(c.failures().maxBadRows()).isEqualTo(100);
    assertThat(c.writer()).isEqualTo(new JobConfig.Writer(128, 100, 4096, 10));
    assertThat(c.warnings()).anyMatch(w -> w.startsWith("skipTokenRanges is accepted"));
    assertThat(c.warnings())
        .anyMatch(w -> w.startsWith("savepoints.enableParquetFileTracking is accepted"));
  }

  @Test
  void maps_credentials_tls_and_pass_through_options_to_connector_options() {
    JobConfig c =
        JobConfigLoader.parse(
            SIDES.replace(
                    "  table: ids_by_partnerid\n",
                    "  table: ids_by_partnerid\n  credentials:\n    username: reader\n    password: s3cret\n"
                        + "  sslOptions:\n    enabled: true\n    trustStorePath: /tls/trust.jks\n"
                        + "    trustStorePassword: changeit\n    clientAuthEnabled: true\n"
                        + "    keyStorePath: /tls/key.jks\n    keyStorePassword: changeit\n"
                        + "  options:\n    spark.cassandra.read.timeoutMS: 240000\n")
                + "spark:\n  spark.cassandra.connection.compression: SNAPPY\n");
    var o = c.source().connectorOptions(c.spark());
    assertThat(o)
        .containsEntry("spark.cassandra.auth.username", "reader")
        .containsEntry("spark.cassandra.auth.password", "s3cret")
        .containsEntry("spark.cassandra.connection.ssl.enabled", "true")
        .containsEntry("spark.cassandra.connection.ssl.trustStore.path", "/tls/trust.jks")
        .containsEntry("spark.cassandra.connection.ssl.clientAuth.enabled", "true")
        .containsEntry("spark.cassandra.connection.ssl.keyStore.path", "/tls/key.jks")
        .containsEntry("spark.cassandra.read.timeoutMS", "240000")
        .containsEntry("spark.cassandra.connection.compression", "SNAPPY")
        .containsEntry("spark.cassandra.input.consistency.level", "LOCAL_QUORUM");
    assertThat(c.source().redacted()).contains("reader/****").doesNotContain("s3cret");
    assertThat(c.target().connectorOptions(c.spark()))
        .doesNotContainKey("spark.cassandra.auth.username")
        .containsEntry("spark.cassandra.connection.compression", "SNAPPY");
  }

  /** A timeSlice section whose keys a case may set again (the last one wins in SnakeYAML). */
  private static final String SLICE =
      "timeSlice:\n  start: 2026-11-29T00:00:00Z\n  end: 2026-11-30T00:00:00Z\n"
          + "  secondsPerTimeBucket: 600\n  eventBuckets: 16\n";

  @Test
  void reads_a_time_slice_quoted_or_not() {
    assertThat(JobConfigLoader.parse(SIDES).timeSlice()).isNull();
    JobConfig.TimeSlice expected =
        new JobConfig.TimeSlice(
            Instant.parse("2026-11-29T00:00:00Z"), Instant.parse("2026-11-30T00:00:00Z"), 600, 16);
    assertThat(JobConfigLoader.parse(SIDES + SLICE).timeSlice()).isEqualTo(expected);
    assertThat(
            JobConfigLoader.parse(
                    SIDES
                        + "timeSlice: {start: '2026-11-29T01:00:00+01:00', end:"
                        + " \"2026-11-30T00:00:00Z\", secondsPerTimeBucket: 600, eventBuckets: 16}\n")
                .timeSlice())
        .isEqualTo(expected);
  }

  @Test
  void compression_defaults_to_lz4() {
    JobConfig c = JobConfigLoader.parse(SIDES);
    assertThat(c.target().connectorOptions(c.spark()))
        .containsEntry("spark.cassandra.connection.compression", "LZ4");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "source:\\n  host: h\\n  keyspace: k\\n  table: t\\n|target: missing (expected: a section",
        "SIDES  port: 0\\n|target.port: 0 (expected: an integer 1..65535)",
        "SIDES  consistencyLevel: QUORATE\\n|target.consistencyLevel: QUORATE (expected: one of ANY",
        "SIDES  type: mongo\\n|target.type: mongo (expected: cassandra, scylla, parquet or dynamodb)",
        "SIDESreshape:\\n  onConflict: keepLatest\\n|reshape.onConflict: keepLatest (expected: one of keepMax, keepMin, keepNewestWritetime, fail)",
        "SIDESreshape:\\n  onConflict: keepMax\\n|reshape.column: missing (expected: a target column name, for onConflict: keepMax)",
        "SIDESreshape:\\n  onConflict: fail\\n  column: x\\n|reshape.column: x (expected: no column",
        "SIDESrenames:\\n  - from: a\\n|renames[0].to: missing (expected: a target column name)",
        "SIDESrateLimit:\\n  rowsPerSecond: lots\\n|rateLimit.rowsPerSecond: lots (expected: an integer",
        "SIDESspark:\\n  cassandra.x: 1\\n|spark.cassandra.x: 1 (expected: a Spark option",
        "SIDEStimestamps:\\n  nonFrozenCollections: drop\\n|timestamps.nonFrozenCollections: drop (expected: one of fail, currentTime)",
        "SIDES  credentials:\\n    username: u\\n|target.credentials: username only (expected: both username and password",
        "SIDESrenamez: []\\n|renamez: unknown key (expected one of: source, target, renames, drop, constants,",
        "SIDES  sslOptions:\\n    enabeld: true\\n|target.sslOptions.enabeld: unknown key (expected one of: enabled,",
        "SIDES  credentials: [u]\\n|target.credentials: [\"u\"] (expected: a mapping)",
        "SIDESsavepoints: [1]\\n|savepoints: [1] (expected: a mapping",
        "SIDESwriter:\\n  batchPartitions: 0\\n|writer.batchPartitions: 0 (expected: an integer 1..100)",
        "SIDESSLICE  start: yesterday\\n|timeSlice.start: yesterday (expected: an ISO-8601 instant like 2026-11-29T00:00:00Z)",
        "SIDESSLICE  eventBuckets: 65\\n|timeSlice.eventBuckets: 65 (expected: an integer 1..64)",
        "SIDESSLICE  eventBuckets: 0\\n|timeSlice.eventBuckets: 0 (expected: an integer 1..64)",
        "SIDESSLICE  secondsPerTimeBucket: 0\\n|timeSlice.secondsPerTimeBucket: 0 (expected: an integer 1..",
        "SIDESSLICE  secondsPerTimeBucket: 7\\n|timeSlice.secondsPerTimeBucket: 7 (expected: a divisor of the slice's width, 86400 seconds from 2026-11-29T00:00:00Z to 2026-11-30T00:00:00Z)",
        "SIDESSLICE  end: 2026-11-29T00:00:00Z\\n|timeSlice.end: 2026-11-29T00:00:00Z (expected: an instant after timeSlice.start (2026-11-29T00:00:00Z))",
        "SIDESSLICE  end: 2026-11-28T00:00:00Z\\n|timeSlice.end: 2026-11-28T00:00:00Z (expected: an instant after timeSlice.start (2026-11-29T00:00:00Z))",
        "SIDEStimeSlice:\\n  start: 2026-11-29T00:00:00Z\\n|timeSlice.end: missing (expected: an ISO-8601 instant like 2026-11-29T00:00:00Z, in a timeSlice section)",
        "SIDEStimeSlice: {}\\n|timeSlice.start: missing (expected: an ISO-8601 instant like 2026-11-29T00:00:00Z, in a timeSlice section)",
        "SIDEStimeSlice:\\n|timeSlice.start: missing (expected: an ISO-8601 instant like 2026-11-29T00:00:00Z, in a timeSlice section)",
        "SIDEStimeSlice:\\n  starts: 2026-11-29T00:00:00Z\\n|timeSlice.starts: unknown key (expected one of: start, end, secondsPerTimeBucket, eventBuckets)",
      })
  void names_the_key_the_value_and_what_was_expected(String yaml, String message) {
    String text = yaml.replace("\\n", "\n").replace("SIDES", SIDES).replace("SLICE", SLICE);
    assertThatThrownBy(() -> JobConfigLoader.parse(text))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(message);
  }
}
