package io.varve.cassandra.metadata;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.partitioning.SliceHistogram;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * Measures the partitions of a slice table by sampled reads, over CQL alone, so that it works the
 * same on Cassandra and ScyllaDB with no JMX and no node-local virtual table:
 *
 * <ol>
 *   <li>the Murmur3 token ring is cut into {@value #PIECES} equal pieces, visited in random order;
 *       the rows of each partition of a piece are counted by the store ({@code GROUP BY} the
 *       partition key, {@code COUNT(*)}: only the counts cross the network), until {@code maxRows}
 *       rows are counted; the share of the ring visited is the histogram's sampled fraction, every
 *       piece being a uniform sample of the partitions;
 *   <li>the mean size of a row comes from at most {@code sampleRows} rows read back from partitions
 *       drawn with a chance proportional to their rows, a page of {@value #SAMPLE_PAGE} rows at a
 *       time (the largest items a namespace allows cannot fill the heap).
 * </ol>
 *
 * Why not the alternatives: {@code system.size_estimates} gives a mean per token range, no
 * distribution; the partition-size histograms are per node, over JMX, which the server does not
 * reach; the virtual tables of Cassandra ({@code system_views.max_partition_size}) give one node's
 * largest partition in bytes, not rows, and ScyllaDB has none of them. A cluster on another
 * partitioner than Murmur3 is counted in one unsplit scan, stopped at the cap, its fraction then
 * unknown and recorded as 1.
 */
final class SliceCensus {

  /** Pieces of the ring: the cap may be passed by one piece, a {@value}th of the table. */
  static final int PIECES = 256;

  static final int SAMPLE_PAGE = 8;

  /** Partitions whose rows are read back for the mean row size. */
  static final int SAMPLED_PARTITIONS = 16;

  private static final String KEY = "time_series_id, time_bucket, event_bucket";

  private final CqlSession session;
  private final Duration timeout;
  private final Clock clock;
  private final Random random;

  SliceCensus(CqlSession session, Duration timeout, Clock clock, Random random) {
    this.session = session;
    this.timeout = timeout;
    this.clock = clock;
    this.random = random;
  }

  /** One counted partition. */
  private record Counted(String series, Instant timeBucket, int eventBucket, long rows) {}

  SliceHistogram measure(String keyspace, String table, long maxRows, int sampleRows) {
    try {
      return count(keyspace, table, maxRows, sampleRows);
    } catch (RuntimeException e) {
      throw CqlFailures.classify(e);
    }
  }

  private SliceHistogram count(String keyspace, String table, long maxRows, int sampleRows) {
    String from =
        CqlIdentifier.fromInternal(keyspace).asCql(true)
            + "."
            + CqlIdentifier.fromInternal(table).asCql(true);
    boolean murmur =
        session
            .getMetadata()
            .getTokenMap()
            .map(TokenMap::getPartitionerName)
            .filter(name -> name.endsWith("Murmur3Partitioner"))
            .isPresent();
    List<Integer> pieces = new ArrayList<>();
    for (int i = 0; i < (murmur ? PIECES : 1); i++) {
      pieces.add(i);
    }
    Collections.shuffle(pieces, random);
    long[] counts = new long[1024];
    int partitions = 0;
    long rows = 0;
    Counted largest = null;
    // weighted reservoir (A-Res): partitions kept with a chance proportional to their rows
    PriorityQueue<Object[]> drawn =
        new PriorityQueue<>((a, b) -> Double.compare((double) a[0], (double) b[0]));
    int visited = 0;
    for (int piece : pieces) {
      if (rows >= maxRows) {
        break;
      }
      SimpleStatement statement = pieceStatement(from, murmur, piece);
      ResultSet rs = session.execute(statement);
      for (Row row : rs) {
        Counted c = new Counted(row.getString(0), row.getInstant(1), row.getInt(2), row.getLong(3));
        if (partitions == counts.length) {
          counts = Arrays.copyOf(counts, counts.length * 2);
        }
        counts[partitions++] = c.rows();
        rows += c.rows();
        if (largest == null || c.rows() > largest.rows()) {
          largest = c;
        }
        double key = Math.pow(random.nextDouble(), 1.0 / Math.max(1, c.rows()));
        if (drawn.size() < SAMPLED_PARTITIONS) {
          drawn.add(new Object[] {key, c});
        } else if (key > (double) drawn.peek()[0]) {
          drawn.poll();
          drawn.add(new Object[] {key, c});
        }
        if (!murmur && rows >= maxRows) {
          break; // one unsplit scan: stopped at the cap
        }
      }
      visited++;
    }
    double fraction = murmur ? (double) visited / PIECES : 1.0;
    long meanRowBytes = meanRowBytes(from, drawn, sampleRows);
    return SliceHistogram.of(
        clock.instant(),
        Math.max(fraction, 1.0 / PIECES),
        Arrays.copyOf(counts, partitions),
        meanRowBytes,
        largest == null ? "" : largest.series());
  }

  private SimpleStatement pieceStatement(String from, boolean murmur, int piece) {
    String cql = "SELECT " + KEY + ", COUNT(*) FROM " + from;
    SimpleStatement statement;
    if (murmur) {
      // piece i is (lo, hi]; the first starts at the ring's minimum, which no key has
      long lo = bound(piece);
      long hi = bound(piece + 1);
      statement =
          SimpleStatement.newInstance(
              cql + " WHERE token(" + KEY + ") > ? AND token(" + KEY + ") <= ? GROUP BY " + KEY,
              lo,
              hi);
    } else {
      statement = SimpleStatement.newInstance(cql + " GROUP BY " + KEY);
    }
    return statement
        .setPageSize(1000)
        .setTimeout(timeout)
        .setConsistencyLevel(DefaultConsistencyLevel.ONE)
        .setIdempotent(true);
  }

  /**
   * The lower end of piece {@code i} of the Murmur3 ring; piece {@value #PIECES} ends at its top.
   */
  static long bound(int i) {
    if (i >= PIECES) {
      return Long.MAX_VALUE;
    }
    // Long.MIN_VALUE + i * (2^64 / PIECES), without overflow
    return Long.MIN_VALUE + (long) i * (Long.divideUnsigned(-1L, PIECES) + 1);
  }

  private long meanRowBytes(String from, PriorityQueue<Object[]> drawn, int sampleRows) {
    if (drawn.isEmpty() || sampleRows < 1) {
      return 0;
    }
    int perPartition = Math.max(1, sampleRows / drawn.size());
    long bytes = 0;
    long read = 0;
    for (Object[] d : drawn) {
      Counted c = (Counted) d[1];
      SimpleStatement statement =
          SimpleStatement.newInstance(
                  "SELECT event_id, event_item_key, event_item_value, value_metadata FROM "
                      + from
                      + " WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ?"
                      + " LIMIT ?",
                  c.series(),
                  c.timeBucket(),
                  c.eventBucket(),
                  perPartition)
              .setPageSize(SAMPLE_PAGE)
              .setTimeout(timeout)
              .setConsistencyLevel(DefaultConsistencyLevel.ONE)
              .setIdempotent(true);
      for (Row row : session.execute(statement)) {
        bytes += Long.BYTES; // event_time
        bytes += utf8(row.getString(0));
        bytes += size(row.getByteBuffer(1)) + size(row.getByteBuffer(2));
        bytes += utf8(row.getString(3));
        read++;
      }
    }
    return read == 0 ? 0 : Math.round((double) bytes / read);
  }

  private static long size(ByteBuffer b) {
    return b == null ? 0 : b.remaining();
  }

  private static long utf8(String s) {
    return s == null ? 0 : s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }
}
