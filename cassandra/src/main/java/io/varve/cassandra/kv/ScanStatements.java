package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.KvNamespace;
import java.util.concurrent.CompletionStage;

/**
 * The CQL of a scan: rows by token range, the rest of one record after a key, and the records
 * sharing one token. Every row query selects the same columns (see {@link ScanRow}), prepared
 * through {@link ItemStatements}' cache.
 */
final class ScanStatements {

  private final ItemStatements statements;

  ScanStatements(ItemStatements statements) {
    this.statements = statements;
  }

  /** The rows of the records whose token is in {@code [?, ?]}. */
  CompletionStage<PreparedStatement> tokens(KvNamespace ns, boolean values) {
    return statements.prepare(select(ns, values) + " WHERE token(id) >= ? AND token(id) <= ?");
  }

  /**
   * The rows of one record, all ({@code afterKey} false) or those after a key in the clustering
   * order.
   */
  CompletionStage<PreparedStatement> record(KvNamespace ns, boolean values, boolean afterKey) {
    String after = ns.order() == ClusteringOrder.ASC ? " AND key > ?" : " AND key < ?";
    return statements.prepare(select(ns, values) + " WHERE id = ?" + (afterKey ? after : ""));
  }

  /** The ids of the records whose token is {@code ?}: more than one only when tokens collide. */
  CompletionStage<PreparedStatement> sameToken(KvNamespace ns) {
    return statements.prepare(
        "SELECT DISTINCT id FROM " + ItemStatements.table(ns) + " WHERE token(id) = ?");
  }

  private static String select(KvNamespace ns, boolean values) {
    // a value cell starts with the metadata: a query of values fetches it once
    return "SELECT key, "
        + (values ? "value, WRITETIME(value)" : "value_metadata, WRITETIME(value_metadata)")
        + ", id, token(id) FROM "
        + ItemStatements.table(ns);
  }
}
