package io.varve.cassandra.kv;

import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createTable;
import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.dropTable;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.cassandra.session.SchemaChanges;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.ItemTables;
import io.varve.core.kv.KvNamespace;
import io.varve.format.ItemTable;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

/**
 * Creates the table of a KeyValue namespace, the shape of the reference text: {@code (id text, key
 * blob, value blob, value_metadata blob, PRIMARY KEY (id, key)) WITH CLUSTERING ORDER BY (key
 * ASC|DESC)}, and beside it the chunk table of its large values ({@link CqlChunkTables}). Run by
 * the control plane only, never on a write. An existing table of another shape or clustering order
 * is refused, naming the field.
 */
public final class CqlItemTables implements ItemTables {

  private final CqlSession session;
  private final Duration timeout;
  private final CqlChunkTables chunks;

  public CqlItemTables(CqlSession session, Duration timeout) {
    this.session = session;
    this.timeout = timeout;
    this.chunks = new CqlChunkTables(session, timeout);
  }

  @Override
  public CompletionStage<Void> create(KvNamespace ns) {
    var statement =
        createTable(
                CqlIdentifier.fromInternal(ns.keyspace()), CqlIdentifier.fromInternal(ns.table()))
            .ifNotExists()
            .withPartitionKey("id", DataTypes.TEXT)
            .withClusteringColumn("key", DataTypes.BLOB)
            .withColumn("value", DataTypes.BLOB)
            .withColumn("value_metadata", DataTypes.BLOB)
            .withClusteringOrder(
                "key",
                ns.order() == io.varve.core.kv.ClusteringOrder.ASC
                    ? ClusteringOrder.ASC
                    : ClusteringOrder.DESC)
            .build();
    SimpleStatement columns =
        SimpleStatement.newInstance(
                "SELECT column_name, clustering_order FROM"
                    + " system_schema.columns WHERE keyspace_name = ? AND table_name = ?",
                ns.keyspace(),
                ns.table())
            .setTimeout(timeout);
    return CqlFailures.translated(
            SchemaChanges.apply(session, statement, timeout)
                .thenCompose(rs -> session.executeAsync(columns)))
        .thenApply(
            rs -> {
              requireShape(ns, rs);
              return null;
            })
        .thenCompose(v -> chunks.create(ns));
  }

  @Override
  public CompletionStage<Void> drop(KvNamespace ns) {
    CqlIdentifier keyspace = CqlIdentifier.fromInternal(ns.keyspace());
    SimpleStatement items =
        dropTable(keyspace, CqlIdentifier.fromInternal(ns.table())).ifExists().build();
    SimpleStatement chunkTable =
        dropTable(keyspace, CqlIdentifier.fromInternal(ItemTable.chunkTable(ns.table())))
            .ifExists()
            .build();
    return CqlFailures.translated(
        SchemaChanges.apply(session, items, timeout)
            .thenCompose(rs -> SchemaChanges.apply(session, chunkTable, timeout))
            .thenApply(rs -> null));
  }

  /**
   * Refuses a table that existed with another shape: CREATE IF NOT EXISTS leaves it as it is, and
   * its clustering order, fixed at creation, would silently contradict the namespace's.
   */
  private static void requireShape(KvNamespace ns, AsyncResultSet rs) {
    Map<String, String> columns = new TreeMap<>();
    rs.currentPage().forEach(row -> columns.put(row.getString(0), row.getString(1)));
    String table = ns.keyspace() + "." + ns.table();
    if (!columns.keySet().equals(Set.of("id", "key", "value", "value_metadata"))) {
      throw new InvalidFieldException(
          "physicalStorage.table",
          table,
          "a new table or one of columns (id, key, value,"
              + " value_metadata); it has "
              + columns.keySet());
    }
    String order = ns.order().name().toLowerCase(Locale.ROOT);
    if (!order.equals(columns.get("key"))) {
      throw new InvalidFieldException(
          "physicalStorage.config.clusteringOrder",
          ns.order(),
          "the clustering order of"
              + " the existing table "
              + table
              + " ("
              + columns.get("key").toUpperCase(Locale.ROOT)
              + "), which cannot change");
    }
  }
}
