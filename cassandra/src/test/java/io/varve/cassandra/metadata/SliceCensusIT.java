package io.varve.cassandra.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.varve.cassandra.TestSessions;
import io.varve.core.partitioning.SliceHistogram;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A slice table's partition histogram on the real test Cassandra: exact over the whole table when
 * it is under the cap, a uniform sample of the ring when over it (its estimate of the partitions
 * near the truth), and the mean row size from rows read back.
 */
class SliceCensusIT {

  static final String KEYSPACE = "cassandra_census_it";
  static final Instant BUCKET = Instant.parse("2026-11-28T00:00:00Z");
  static final int SPARSE = 2000;
  static final int DENSE_ROWS = 3000;
  static CqlSession session;
  static CqlSliceTables tables;
  static long sparseRows;

  @BeforeAll
  static void fill() {
    session = TestSessions.open();
    tables = TestSessions.freshKeyspace(session, KEYSPACE);
    tables.create(KEYSPACE, "skewed").toCompletableFuture().join();
    tables.create(KEYSPACE, "even").toCompletableFuture().join();
    tables.create(KEYSPACE, "empty").toCompletableFuture().join();
    byte[] value = new byte[100];
    List<CompletableFuture<?>> writes = new ArrayList<>();
    for (String table : List.of("skewed", "even")) {
      PreparedStatement insert =
          session.prepare(
              "INSERT INTO "
                  + KEYSPACE
                  + "."
                  + table
                  + " (time_series_id, time_bucket, event_bucket, event_time, event_id,"
                  + " event_item_key, event_item_value, value_metadata) VALUES (?, ?, 0, ?, ?, ?,"
                  + " ?, '')");
      sparseRows = 0;
      for (int s = 0; s < SPARSE; s++) {
        int rows = 1 + s % 5;
        sparseRows += rows;
        for (int r = 0; r < rows; r++) {
          writes.add(row(insert, "series-" + s, r, value));
        }
      }
      if (table.equals("skewed")) {
        for (int r = 0; r < DENSE_ROWS; r++) {
          writes.add(row(insert, "dense", r, value));
        }
      }
      CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
      writes.clear();
    }
  }

  static final java.util.concurrent.Semaphore IN_FLIGHT = new java.util.concurrent.Semaphore(128);

  /** One row written, at most 128 in flight (a connection takes no more at once). */
  static CompletableFuture<?> row(PreparedStatement insert, String series, int r, byte[] value) {
    IN_FLIGHT.acquireUninterruptibly();
    return session
        .executeAsync(
            insert.bind(
                series,
                BUCKET,
                BUCKET.plusMillis(r),
                "e" + r, // 2..5 bytes
                ByteBuffer.wrap(new byte[] {'k'}),
                ByteBuffer.wrap(value)))
        .toCompletableFuture()
        .whenComplete((rs, e) -> IN_FLIGHT.release());
  }

  @AfterAll
  static void close() {
    session.close();
  }

  static SliceCensus census() {
    return new SliceCensus(
        session, TestSessions.SCHEMA_TIMEOUT, Clock.systemUTC(), new Random(20261129));
  }

  @Test
  void a_table_under_the_cap_is_counted_whole() {
    SliceHistogram h = census().measure(KEYSPACE, "skewed", 1_000_000, 256);
    assertThat(h.sampledFraction()).isEqualTo(1.0);
    assertThat(h.partitions()).isEqualTo(SPARSE + 1);
    assertThat(h.rows()).isEqualTo(sparseRows + DENSE_ROWS);
    assertThat(h.maxRows()).isEqualTo(DENSE_ROWS);
    assertThat(h.densestSeries()).isEqualTo("dense");
    assertThat(h.p50Rows()).isEqualTo(3);
    // a row: 8 bytes of time, its 2..5-byte id, a 1-byte key, 100 bytes of value
    assertThat(h.meanRowBytes()).isBetween(111L, 114L);
  }

  @Test
  void a_table_over_the_cap_is_a_uniform_sample_of_the_ring() {
    SliceHistogram h = census().measure(KEYSPACE, "even", 1_500, 64);
    assertThat(h.sampledFraction()).isGreaterThan(0).isLessThan(0.5);
    // the cap is passed by the last piece counted only
    assertThat(h.rows()).isGreaterThanOrEqualTo(1_500).isLessThan(1_500 + 200);
    double estimated = h.partitions() / h.sampledFraction();
    assertThat(estimated).as("partitions estimated from the sample").isBetween(1500.0, 2500.0);
    assertThat(h.maxRows()).isEqualTo(5);
  }

  @Test
  void an_empty_table_has_an_empty_histogram() {
    SliceHistogram h = census().measure(KEYSPACE, "empty", 1_000_000, 256);
    assertThat(h.partitions()).isZero();
    assertThat(h.meanRowBytes()).isZero();
    assertThat(h.sampledFraction()).isEqualTo(1.0);
  }
}
