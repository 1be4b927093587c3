package io.varve.perf.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The baseline: a plain async CQL client with prepared statements on a table of the item tables'
 * shape, in the namespaces' keyspace. It writes the rows the server writes (the same {@code
 * value_metadata} bytes, {@code USING TIMESTAMP} of the token's time, one unlogged single-partition
 * batch per request, the same consistency) and reads them with the columns the server selects.
 */
final class RawItems {

  /**
   * What reading a record in byte pages with a fixed fetch size cost.
   *
   * @param pages the pages (queries)
   * @param returned the items the pages held
   * @param received the rows Cassandra sent (every row of every fetch)
   * @param visited the rows looked at: those returned and, per page, the one that did not fit
   */
  record FixedFetch(long pages, long returned, long received, long visited) {}

  private final CqlSession session;
  private final ConsistencyLevel level;
  private final PreparedStatement insert;
  private final PreparedStatement select;
  private final PreparedStatement selectAfter;

  RawItems(CqlSession session, String table, ConsistencyLevel level) {
    this.session = session;
    this.level = level;
    this.insert =
        session.prepare(
            "INSERT INTO "
                + table
                + " (id, key, value, value_metadata) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    String columns = "SELECT key, value, WRITETIME(value) FROM " + table;
    this.select = session.prepare(columns + " WHERE id = ?");
    this.selectAfter = session.prepare(columns + " WHERE id = ? AND key > ?");
  }

  /** Writes the items into record {@code id} as one unlogged batch at the token's time. */
  CompletionStage<AsyncResultSet> put(String id, List<ItemData.Item> items, KvApi.Token token) {
    BatchStatementBuilder batch = BatchStatement.builder(BatchType.UNLOGGED);
    for (ItemData.Item item : items) {
      batch.addStatement(row(id, item.key(), ByteBuffer.wrap(item.value()), token));
    }
    return session.executeAsync(batch.setConsistencyLevel(level).setIdempotence(true).build());
  }

  /** Writes one item as the only row of record {@code id}, its value read from {@code value}. */
  CompletionStage<AsyncResultSet> putOne(
      String id, byte[] key, ByteBuffer value, KvApi.Token token) {
    return session.executeAsync(
        row(id, key, value, token).setConsistencyLevel(level).setIdempotent(true));
  }

  private BoundStatement row(String id, byte[] key, ByteBuffer value, KvApi.Token token) {
    byte[] metadata =
        ValueMetadata.inline(token.nonce(), value.remaining(), ValueMetadata.Compression.NONE)
            .encode();
    return insert.bind(
        id,
        ByteBuffer.wrap(key),
        ValueMetadata.frame(metadata, value),
        ByteBuffer.wrap(metadata),
        token.micros());
  }

  /** Writes a whole record, request after request. */
  void putAll(String id, List<List<ItemData.Item>> requests) {
    for (List<ItemData.Item> request : requests) {
      put(id, request, KvApi.Token.now()).toCompletableFuture().join();
    }
  }

  /** Reads every row of record {@code id} (fetches of 5,000 rows); returns the rows. */
  int readAll(String id) {
    int rows = 0;
    for (Row row : session.execute(select.bind(id).setConsistencyLevel(level).setPageSize(5000))) {
      row.getByteBuffer(1);
      rows++;
    }
    return rows;
  }

  /** Reads record {@code id}: its first fetch (up to 5,000 rows). */
  CompletionStage<AsyncResultSet> readAsync(String id) {
    return session.executeAsync(select.bind(id).setConsistencyLevel(level).setPageSize(5000));
  }

  /** The value of the one row of record {@code id}; fails unless there is exactly one. */
  CompletionStage<ByteBuffer> readValueAsync(String id) {
    return session
        .executeAsync(select.bind(id).setConsistencyLevel(level))
        .thenApply(
            rs -> {
              Row row = rs.one();
              if (row == null || rs.one() != null) {
                throw new IllegalStateException("record " + id + " is not one row");
              }
              return ValueMetadata.payload(row.getByteBuffer(1));
            });
  }

  /**
   * Reads the one row of record {@code id}; fails unless it holds a value of {@code valueBytes}.
   */
  CompletionStage<?> readOneAsync(String id, int valueBytes) {
    return readValueAsync(id)
        .thenAccept(
            value -> {
              if (value.remaining() != valueBytes) {
                throw new IllegalStateException("row " + id + " is not one value of " + valueBytes);
              }
            });
  }

  /**
   * Reads record {@code id} as a paging client with a fixed row limit does: each page is a new
   * query after the previous page's last key, fetching {@code fetchRows} rows at a time until the
   * page of {@code pageSizeBytes} (keys plus values, {@link BytePage}'s rule) is full; the rest of
   * the last fetch is discarded.
   */
  FixedFetch readInPages(String id, int pageSizeBytes, int fetchRows) {
    long pages = 0;
    long returned = 0;
    long received = 0;
    long visited = 0;
    ByteBuffer after = null;
    while (true) {
      Page page =
          page(
              after == null ? select.bind(id) : selectAfter.bind(id, after),
              pageSizeBytes,
              fetchRows);
      pages++;
      returned += page.items();
      received += page.received();
      visited += page.visited();
      after = page.lastKey();
      if (!page.full()) {
        return new FixedFetch(pages, returned, received, visited);
      }
    }
  }

  /**
   * Reads the first page of record {@code id} as a client that knows its rows' sizes does: one
   * query, {@code fetchRows} rows in one fetch, filling a page of {@code pageSizeBytes}; returns
   * its items.
   */
  int firstPage(String id, int pageSizeBytes, int fetchRows) {
    return page(select.bind(id), pageSizeBytes, fetchRows).items();
  }

  /**
   * One page of a fixed-fetch client.
   *
   * @param items the items it holds
   * @param received the rows Cassandra sent
   * @param visited the rows looked at: the items and the one that did not fit
   * @param full whether a row did not fit (more may follow)
   * @param lastKey the key of its last item, null when it holds none
   */
  private record Page(int items, long received, long visited, boolean full, ByteBuffer lastKey) {}

  private Page page(BoundStatement query, int pageSizeBytes, int fetchRows) {
    AsyncResultSet rs =
        session
            .executeAsync(query.setConsistencyLevel(level).setPageSize(fetchRows))
            .toCompletableFuture()
            .join();
    BytePage page = new BytePage(pageSizeBytes, Long.MAX_VALUE);
    int items = 0;
    long received = 0;
    long visited = 0;
    ByteBuffer last = null;
    boolean full = false;
    while (true) {
      received += rs.remaining();
      for (Row row : rs.currentPage()) {
        if (full) {
          continue; // received and discarded
        }
        visited++;
        ByteBuffer key = row.getByteBuffer(0);
        ByteBuffer value = ValueMetadata.payload(row.getByteBuffer(1));
        if (!page.offer(key.remaining() + value.remaining())) {
          full = true;
        } else {
          last = key;
          items++;
        }
      }
      if (full || !rs.hasMorePages()) {
        return new Page(items, received, visited, full, last);
      }
      rs = rs.fetchNextPage().toCompletableFuture().join();
    }
  }
}
