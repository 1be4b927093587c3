package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvNamespace;
import io.varve.format.ItemTable;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CQL of an item table, prepared once per shape and table. Keyspace and table names were
 * validated as {@code [a-z][a-z0-9_]*} and are quoted; every value is a bind marker.
 */
final class ItemStatements {

  private final CqlSession session;
  private final Map<String, CompletableFuture<PreparedStatement>> prepared =
      new ConcurrentHashMap<>();

  ItemStatements(CqlSession session) {
    this.session = session;
  }

  /** The table and shape of an insert: the key of the inserts prepared already. */
  private record InsertShape(String keyspace, String table, boolean ttl) {}

  private final Map<InsertShape, CompletionStage<PreparedStatement>> inserts =
      new ConcurrentHashMap<>();

  /**
   * {@code INSERT (id, key, value, value_metadata) USING TIMESTAMP ? [AND TTL ?]}. Every PutItems
   * asks for it: found by the table's names, without building its CQL again.
   */
  CompletionStage<PreparedStatement> insert(KvNamespace ns, boolean ttl) {
    InsertShape shape = new InsertShape(ns.keyspace(), ns.table(), ttl);
    CompletionStage<PreparedStatement> known = inserts.get(shape);
    if (known != null) {
      return known;
    }
    CompletionStage<PreparedStatement> statement = prepare(ItemTable.insertInto(table(ns), ttl));
    // kept once prepared: a failed preparation (the table not there yet) is asked again
    statement.thenAccept(p -> inserts.putIfAbsent(shape, CompletableFuture.completedFuture(p)));
    return statement;
  }

  /** A partition or range delete; the range's present bounds become bind markers after the id. */
  CompletionStage<PreparedStatement> delete(KvNamespace ns, KeyRange range) {
    return prepare("DELETE FROM " + table(ns) + " USING TIMESTAMP ? WHERE id = ?" + bounds(range));
  }

  /** What an item query selects besides the key. */
  enum Columns {
    /**
     * The value and its write time: {@code key, value, wt}; the value cell starts with the
     * metadata, so {@code value_metadata} is not fetched twice.
     */
    VALUES,
    /** The metadata and the write time: {@code key, value_metadata, wt}. */
    METADATA,
    /** The metadata alone, for the sizes a page is planned by: {@code key, value_metadata}. */
    SIZES
  }

  /** The rows of a range. */
  CompletionStage<PreparedStatement> selectRange(KvNamespace ns, KeyRange range, Columns columns) {
    return prepare(select(ns, columns) + bounds(range));
  }

  /** The rows of listed keys. */
  CompletionStage<PreparedStatement> selectKeys(KvNamespace ns, Columns columns) {
    return prepare(select(ns, columns) + " AND key IN ?");
  }

  private static String select(KvNamespace ns, Columns columns) {
    return "SELECT key, "
        + switch (columns) {
          case VALUES -> "value, WRITETIME(value)";
          case METADATA -> "value_metadata, WRITETIME(value_metadata)";
          case SIZES -> "value_metadata";
        }
        + " FROM "
        + table(ns)
        + " WHERE id = ?";
  }

  private static String bounds(KeyRange range) {
    StringBuilder cql = new StringBuilder();
    range
        .start()
        .ifPresent(
            k -> cql.append(" AND key ").append(range.startInclusive() ? ">=" : ">").append(" ?"));
    range
        .end()
        .ifPresent(
            k -> cql.append(" AND key ").append(range.endInclusive() ? "<=" : "<").append(" ?"));
    return cql.toString();
  }

  static String table(KvNamespace ns) {
    return CqlIdentifier.fromInternal(ns.keyspace()).asCql(true)
        + "."
        + CqlIdentifier.fromInternal(ns.table()).asCql(true);
  }

  CompletionStage<PreparedStatement> prepare(String cql) {
    CompletableFuture<PreparedStatement> statement =
        prepared.computeIfAbsent(cql, q -> session.prepareAsync(q).toCompletableFuture());
    // a failed preparation (the table not there yet) is not kept: the next request prepares again
    statement.whenComplete(
        (p, error) -> {
          if (error != null) {
            prepared.remove(cql, statement);
          }
        });
    return statement;
  }
}
