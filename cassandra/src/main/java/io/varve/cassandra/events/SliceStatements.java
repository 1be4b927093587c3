package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.varve.cassandra.cql.ValueCodec;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prepared statements of slice tables, prepared once per table and cached. Keyspace and table names
 * come from the metadata store, where they were validated as plain identifiers.
 */
final class SliceStatements {

  /**
   * Selected after value_metadata by every read of item rows: the write timestamps that tell a
   * stale marker from a current one ({@link ValueCodec#decode}).
   */
  static final String ITEM_WRITETIMES = "WRITETIME(event_item_value), WRITETIME(value_metadata)";

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
    CompletionStage<PreparedStatement> insert =
        session.prepareAsync(
            "INSERT INTO "
                + name
                + " (time_series_id, time_bucket, event_bucket, event_time, event_id, event_item_key, event_item_value,"
                + " value_metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    CompletionStage<PreparedStatement> select =
        session.prepareAsync(
            "SELECT event_time, event_id, event_item_key,"
                + " event_item_value, value_metadata, "
                + ITEM_WRITETIMES
                + " FROM "
                + name
                + " WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ? AND event_time >= ? AND event_time < ?");
    return insert.thenCombine(select, Pair::new);
  }
}
