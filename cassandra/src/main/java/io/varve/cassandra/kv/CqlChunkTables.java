package io.varve.cassandra.kv;

import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createTable;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.cassandra.session.SchemaChanges;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvNamespace;
import io.varve.format.ItemTable;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The chunk table of a KeyValue namespace, beside its item table: {@code <table>_chunks (id text,
 * key blob, generation bigint, nonce text, chunk int, data blob, PRIMARY KEY ((id, key, generation,
 * nonce, chunk)))}, named by {@link ItemTable#chunkTable}. Every chunk is its own partition, so one
 * large value spreads over the whole ring, and a chunk is addressed by the version that wrote it
 * (the idempotency token's generation time and nonce): chunks of two versions of an item never mix.
 * Created by the control plane with the item table, never by a write.
 */
public final class CqlChunkTables {

  private static final Set<String> COLUMNS =
      Set.of("id", "key", "generation", "nonce", "chunk", "data");

  private final CqlSession session;
  private final Duration timeout;

  public CqlChunkTables(CqlSession session, Duration timeout) {
    this.session = session;
    this.timeout = timeout;
  }

  /** The chunk table of item table {@code table}: {@link ItemTable#chunkTable}. */
  public static String name(String table) {
    return ItemTable.chunkTable(table);
  }

  /** Creates the namespace's chunk table if it does not exist; refuses one of another shape. */
  public CompletionStage<Void> create(KvNamespace ns) {
    String table = ItemTable.chunkTable(ns.table());
    var statement =
        createTable(CqlIdentifier.fromInternal(ns.keyspace()), CqlIdentifier.fromInternal(table))
            .ifNotExists()
            .withPartitionKey("id", DataTypes.TEXT)
            .withPartitionKey("key", DataTypes.BLOB)
            .withPartitionKey("generation", DataTypes.BIGINT)
            .withPartitionKey("nonce", DataTypes.TEXT)
            .withPartitionKey("chunk", DataTypes.INT)
            .withColumn("data", DataTypes.BLOB)
            .build();
    SimpleStatement columns =
        SimpleStatement.newInstance(
                "SELECT column_name, kind FROM system_schema.columns"
                    + " WHERE keyspace_name = ? AND table_name = ?",
                ns.keyspace(),
                table)
            .setTimeout(timeout);
    return CqlFailures.translated(
            SchemaChanges.apply(session, statement, timeout)
                .thenCompose(rs -> session.executeAsync(columns)))
        .thenApply(
            rs -> {
              Set<String> found = new HashSet<>();
              Set<String> partitionKey = new HashSet<>();
              rs.currentPage()
                  .forEach(
                      row -> {
                        found.add(row.getString(0));
                        if ("partition_key".equals(row.getString(1))) {
                          partitionKey.add(row.getString(0));
                        }
                      });
              if (!found.equals(COLUMNS)
                  || !partitionKey.equals(Set.of("id", "key", "generation", "nonce", "chunk"))) {
                throw new InvalidFieldException(
                    "physicalStorage.table",
                    ns.keyspace() + "." + table,
                    "a new chunk table or one of columns (id, key, generation, nonce, chunk, data)"
                        + " partitioned by all but data; it has "
                        + found
                        + " partitioned by "
                        + partitionKey);
              }
              return null;
            });
  }
}
