package io.varve.cassandra.kv;

import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createTable;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.kv.ItemTables;
import io.varve.core.kv.KvNamespace;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Creates the table of a KeyValue namespace, the shape of the reference text:
 * {@code (id text, key blob, value blob, value_metadata blob, PRIMARY KEY (id, key)) WITH CLUSTERING
 * ORDER BY (key ASC|DESC)}. Run by the control plane only, never on a write.
 */
public final class CqlItemTables implements ItemTables {

  private final CqlSession session;
  private final Duration timeout;

  public CqlItemTables(CqlSession session, Duration timeout) {
    this.session = session;
    this.timeout = timeout;
  }

  @Override
  public CompletionStage<Void> create(KvNamespace ns) {
    var statement = createTable(CqlIdentifier.fromInternal(ns.keyspace()), CqlIdentifier.fromInternal(ns.table()))
        .ifNotExists()
        .withPartitionKey("id", DataTypes.TEXT)
        .withClusteringColumn("key", DataTypes.BLOB)
        .withColumn("value", DataTypes.BLOB)
        .withColumn("value_metadata", DataTypes.BLOB)
        .withClusteringOrder("key", ns.order() == io.varve.core.kv.ClusteringOrder.ASC ? ClusteringOrder.ASC
            : ClusteringOrder.DESC)
        .build();
    return CqlFailures.translated(session.executeAsync(statement.setTimeout(timeout)).thenApply(rs -> null));
  }
}
