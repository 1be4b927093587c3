package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.core.error.VarveException;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Hands the rows of one item query to a visitor, driver page after driver page, until the visitor
 * stops, the rows run out or (when not following pages) the first non-empty driver page is
 * consumed. Only one driver page is held at a time: its size is the fetch size the query was run
 * with.
 */
final class RowStream {

  /** How a stream ended. */
  enum End {
    /** The visitor stopped. */
    STOPPED,
    /** No rows are left. */
    EXHAUSTED,
    /** A driver page was consumed and more rows exist; they were not fetched. */
    PAUSED,
    /** The read's {@link ReadBudget} stopped it before the rows ran out: more may exist. */
    CUT
  }

  /**
   * The end, the key of the last row visited (null when none was), the bytes of the largest driver
   * page (every column of every row: what one fetch held) and the rows Cassandra sent, visited or
   * not (every row of every driver page: what read amplification counts).
   */
  record Outcome(End end, byte[] lastKey, long largestFetchBytes, long rowsReceived) {

    /** A stream that never fetched. */
    static Outcome none(End end) {
      return new Outcome(end, null, 0, 0);
    }
  }

  /** Takes one row; {@code false} stops the stream. */
  interface Visitor {
    boolean visit(byte[] key, ValueMetadata metadata, Row row);
  }

  /** The column every item query selects, holding the item's {@link ValueMetadata}. */
  private static final String METADATA = "value_metadata";

  /** The column a query of values selects, whose cell starts with the same metadata. */
  private static final String VALUE = "value";

  private final Visitor visitor;
  private final boolean followPages;
  private final ReadBudget budget;
  private byte[] lastKey;
  private long largestFetchBytes;
  private long rowsReceived;

  private RowStream(Visitor visitor, boolean followPages, ReadBudget budget) {
    this.visitor = visitor;
    this.followPages = followPages;
    this.budget = budget;
  }

  /**
   * Streams the rows of {@code first}; the rows' first column is the key, and they hold {@code
   * value_metadata}.
   */
  static CompletionStage<Outcome> run(
      CompletionStage<AsyncResultSet> first, boolean followPages, Visitor visitor) {
    return run(first, followPages, ReadBudget.NONE, visitor);
  }

  /**
   * As above, asking {@code budget} before each further fetch; a fetch it refuses or cancels ends
   * the stream {@link End#CUT}.
   */
  static CompletionStage<Outcome> run(
      CompletionStage<AsyncResultSet> first,
      boolean followPages,
      ReadBudget budget,
      Visitor visitor) {
    return new RowStream(visitor, followPages, budget).next(first);
  }

  private CompletionStage<Outcome> next(CompletionStage<AsyncResultSet> fetch) {
    return fetch
        .handle(
            (rs, error) ->
                error == null
                    ? consume(rs)
                    : budget.cutShort()
                        ? CompletableFuture.completedFuture(cut())
                        : CompletableFuture.<Outcome>failedFuture(error))
        .thenCompose(Function.identity());
  }

  private Outcome cut() {
    return outcome(End.CUT);
  }

  private Outcome outcome(End end) {
    return new Outcome(end, lastKey, largestFetchBytes, rowsReceived);
  }

  private CompletionStage<Outcome> consume(AsyncResultSet rs) {
    boolean any = false;
    boolean stopped = false;
    long fetchBytes = 0;
    rowsReceived += rs.remaining();
    // looked up once per driver page: a lookup by name per row costs as much as the row's decoding
    int columns = rs.getColumnDefinitions().size();
    // a row with its value: the metadata in front of the value, which belongs to it whatever the
    // metadata cell holds (ValueMetadata#frame)
    int value = rs.getColumnDefinitions().firstIndexOf(VALUE);
    int metadata = value >= 0 ? value : rs.getColumnDefinitions().firstIndexOf(METADATA);
    for (Row row : rs.currentPage()) { // iterable once: the rows after a stop are only measured
      for (int i = 0; i < columns; i++) {
        ByteBuffer column = row.getBytesUnsafe(i);
        fetchBytes += column == null ? 0 : column.remaining();
      }
      if (!stopped) {
        any = true;
        lastKey = bytes(blob(row, 0));
        stopped = !visitor.visit(lastKey, metadata(row, metadata, lastKey), row);
      }
    }
    largestFetchBytes = Math.max(largestFetchBytes, fetchBytes);
    if (stopped) {
      return CompletableFuture.completedFuture(outcome(End.STOPPED));
    }
    if (!rs.hasMorePages()) {
      return CompletableFuture.completedFuture(outcome(End.EXHAUSTED));
    }
    if (!followPages && any) {
      return CompletableFuture.completedFuture(outcome(End.PAUSED));
    }
    if (!budget.mayFetch()) {
      return CompletableFuture.completedFuture(cut());
    }
    return next(budget.track(rs.fetchNextPage()));
  }

  /**
   * The metadata of a row; a row that holds none Varve can read fails the read naming its key, not
   * with a bare decoding error.
   */
  private static ValueMetadata metadata(Row row, int column, byte[] key) {
    try {
      return ValueMetadata.decode(blob(row, column));
    } catch (IllegalArgumentException e) {
      throw new VarveException(
          VarveException.Kind.INTERNAL,
          "the item of key 0x"
              + HexFormat.of().formatHex(key, 0, Math.min(key.length, 64))
              + (key.length > 64 ? "..." : "")
              + " cannot be read: "
              + e.getMessage()
              + " (a row written outside Varve, or by a build of another storage format)",
          e);
    }
  }

  /**
   * A {@code blob} column of a row as it came from Cassandra, without the driver's codec lookup per
   * call ({@code getByteBuffer} finds a codec for every cell; a blob's is the identity): the
   * driver's own buffer, to be read, never written or kept.
   */
  static ByteBuffer blob(Row row, int column) {
    return row.getBytesUnsafe(column);
  }

  /** A {@code bigint} column of a row ({@code WRITETIME(...)}), decoded without a codec lookup. */
  static long bigint(Row row, int column) {
    return TypeCodecs.BIGINT.decodePrimitive(row.getBytesUnsafe(column), ProtocolVersion.DEFAULT);
  }

  static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer == null ? 0 : buffer.remaining()];
    if (buffer != null) {
      buffer.duplicate().get(bytes);
    }
    return bytes;
  }
}
