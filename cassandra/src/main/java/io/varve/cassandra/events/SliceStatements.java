package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.varve.format.SliceTable;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prepared statements of slice tables, prepared once per table and cached. Keyspace and table names
 * come from the metadata store, where they were validated as plain identifiers.
 */
final class SliceStatements {

  record Pair(PreparedStatement insert, PreparedStatement select) {}

  private final CqlSession session;
  private final Map<String, CompletionStage<Pair>> cache = new ConcurrentHashMap<>();

  SliceStatements(CqlSession session) {
    this.session = session;
  }

  CompletionStage<Pair> of(String keyspace, String table) {
    return cache.computeIfAbsent(
        keyspace + '.' + table,
        k ->
            prepare(keyspace, table)
                .whenComplete(
                    (p, e) -> {
                      if (e != null) {
                        cache.remove(k);
                      }
                    }));
  }

  private CompletionStage<Pair> prepare(String keyspace, String table) {
    String name =
        CqlIdentifier.fromInternal(keyspace).asCql(true)
            + '.'
            + CqlIdentifier.fromInternal(table).asCql(true);
    CompletionStage<PreparedStatement> insert = session.prepareAsync(SliceTable.insertInto(name));
    CompletionStage<PreparedStatement> select =
        session.prepareAsync(
            "SELECT event_time, event_id, "
                + SliceTable.ITEM_COLUMNS
                + " FROM "
                + name
                + " WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ? AND event_time >= ? AND event_time < ?");
    return insert.thenCombine(select, Pair::new);
  }
}
