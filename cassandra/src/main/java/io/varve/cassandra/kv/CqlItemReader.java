package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.cassandra.events.ConsistencyLevels;
import io.varve.cassandra.events.ValueCodec;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Reads one page of a record's items: fetches rows {@code fetchSize} at a time, in clustering order,
 * and hands each live item to a {@link BytePage} until it is done. Items marked expired by a delete
 * are skipped (they count as fetched, not returned).
 */
public final class CqlItemReader {

  /** A page: its items, whether more may follow, and the rows fetched from Cassandra to make it. */
  public record Page(List<KvItem> items, boolean more, long rowsFetched, long bytes) {}

  private final CqlSession session;
  private final ItemStatements statements;

  public CqlItemReader(CqlSession session) {
    this.session = session;
    this.statements = new ItemStatements(session);
  }

  /**
   * @param predicate the items to read, already narrowed to those after the previous page
   * @param values whether to read values (otherwise keys and metadata only)
   */
  public CompletionStage<Page> read(KvNamespace ns, String id, ItemPredicate predicate, boolean values,
      int fetchSize, BytePage page) {
    CompletionStage<BoundStatementBuilder> statement;
    if (predicate instanceof ItemPredicate.Keys keys) {
      List<ByteBuffer> bound = keys.keys().stream().map(ByteBuffer::wrap).toList();
      statement = statements.selectKeys(ns, values).thenApply(p -> p.boundStatementBuilder()
          .setString(0, id).setList(1, bound, ByteBuffer.class));
    } else {
      KeyRange range = predicate instanceof ItemPredicate.Range r ? r.range() : KeyRange.ALL;
      statement = statements.selectRange(ns, range, values).thenApply(p -> bind(p, id, range));
    }
    Collector collector = new Collector(values, page);
    return CqlFailures.translated(statement.thenCompose(s -> session.executeAsync(s.setPageSize(fetchSize)
        .setConsistencyLevel(ConsistencyLevels.of(ns.consistency())).build()))
        .thenCompose(collector::consume));
  }

  private static BoundStatementBuilder bind(PreparedStatement p, String id, KeyRange range) {
    BoundStatementBuilder b = p.boundStatementBuilder().setString(0, id);
    int i = 1;
    if (range.start().isPresent()) {
      b.setByteBuffer(i++, ByteBuffer.wrap(range.start().get()));
    }
    if (range.end().isPresent()) {
      b.setByteBuffer(i, ByteBuffer.wrap(range.end().get()));
    }
    return b;
  }

  /** Takes rows page after page of the driver's until the byte page is done or the rows run out. */
  private static final class Collector {
    private final boolean values;
    private final BytePage page;
    private final List<KvItem> items = new ArrayList<>();
    private long fetched;

    Collector(boolean values, BytePage page) {
      this.values = values;
      this.page = page;
    }

    CompletionStage<Page> consume(AsyncResultSet rs) {
      for (Row row : rs.currentPage()) {
        fetched++;
        ValueMetadata metadata = ValueMetadata.decode(row.getByteBuffer("value_metadata"));
        if (metadata.expired()) {
          continue;
        }
        byte[] key = bytes(row.getByteBuffer(0));
        byte[] value = values ? value(row.getByteBuffer(1), metadata) : new byte[0];
        if (!page.offer(key.length + value.length)) {
          return CompletableFuture.completedFuture(new Page(items, page.more(), fetched, page.bytes()));
        }
        items.add(new KvItem(key, value, metadata.valueSize(), row.getLong(values ? 3 : 2)));
        if (page.done()) {
          // the page is at the item limit; a full page is only known by the next item refused
          return CompletableFuture.completedFuture(new Page(items, page.more(), fetched, page.bytes()));
        }
      }
      if (rs.hasMorePages()) {
        return rs.fetchNextPage().thenCompose(this::consume);
      }
      return CompletableFuture.completedFuture(new Page(items, false, fetched, page.bytes()));
    }

    private static byte[] value(ByteBuffer stored, ValueMetadata metadata) {
      return metadata.compression() == ValueMetadata.Compression.ZSTD
          ? ValueCodec.decode(stored, ValueCodec.ZSTD, 0, 0) : bytes(stored);
    }

    private static byte[] bytes(ByteBuffer buffer) {
      byte[] bytes = new byte[buffer == null ? 0 : buffer.remaining()];
      if (buffer != null) {
        buffer.duplicate().get(bytes);
      }
      return bytes;
    }
  }
}
