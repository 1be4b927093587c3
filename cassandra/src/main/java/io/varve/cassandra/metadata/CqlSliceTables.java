package io.varve.cassandra.metadata;

import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createKeyspace;
import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createTable;
import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.dropTable;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.cassandra.session.SchemaChanges;
import io.varve.core.store.SliceTables;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Creates and drops slice tables. Every statement is built with the driver's schema builder from
 * identifiers that were validated as {@code [a-z][a-z0-9_]*}; nothing is concatenated into CQL.
 *
 * <p>A slice table: partition key {@code (time_series_id, time_bucket, event_bucket)}, clustering
 * {@code (event_time DESC, event_id ASC, event_item_key ASC)}, one row per event item.
 */
public final class CqlSliceTables implements SliceTables {

  private final CqlSession session;
  private final Map<String, Object> replication;
  private final Duration timeout;

  public CqlSliceTables(CqlSession session, Map<String, String> replication, Duration timeout) {
    this.session = session;
    this.replication = replicationOptions(replication);
    this.timeout = timeout;
  }

  @Override
  public CompletionStage<Void> createKeyspaceIfMissing(String keyspace) {
    SimpleStatement statement =
        createKeyspace(CqlIdentifier.fromInternal(keyspace))
            .ifNotExists()
            .withReplicationOptions(replication)
            .build();
    return run(statement);
  }

  @Override
  public CompletionStage<Void> create(String keyspace, String table) {
    SimpleStatement statement =
        createTable(CqlIdentifier.fromInternal(keyspace), CqlIdentifier.fromInternal(table))
            .ifNotExists()
            .withPartitionKey("time_series_id", DataTypes.TEXT)
            .withPartitionKey("time_bucket", DataTypes.TIMESTAMP)
            .withPartitionKey("event_bucket", DataTypes.INT)
            .withClusteringColumn("event_time", DataTypes.TIMESTAMP)
            .withClusteringColumn("event_id", DataTypes.TEXT)
            .withClusteringColumn("event_item_key", DataTypes.BLOB)
            .withColumn("event_item_value", DataTypes.BLOB)
            .withColumn("value_metadata", DataTypes.TEXT)
            .withClusteringOrder("event_time", ClusteringOrder.DESC)
            .withClusteringOrder("event_id", ClusteringOrder.ASC)
            .withClusteringOrder("event_item_key", ClusteringOrder.ASC)
            .build();
    return run(statement);
  }

  @Override
  public CompletionStage<Boolean> exists(String keyspace, String table) {
    SimpleStatement statement =
        SimpleStatement.newInstance(
                "SELECT table_name FROM system_schema.tables"
                    + " WHERE keyspace_name = ? AND table_name = ?",
                keyspace,
                table)
            .setConsistencyLevel(DefaultConsistencyLevel.ONE);
    return CqlFailures.translated(
        session.executeAsync(statement).thenApply(rs -> rs.one() != null));
  }

  @Override
  public CompletionStage<Void> drop(String keyspace, String table) {
    return run(
        dropTable(CqlIdentifier.fromInternal(keyspace), CqlIdentifier.fromInternal(table))
            .ifExists()
            .build());
  }

  private CompletionStage<Void> run(SimpleStatement statement) {
    return CqlFailures.translated(
        SchemaChanges.apply(session, statement, timeout).thenApply(rs -> null));
  }

  /** Replication options with numeric values as numbers, as the schema builder expects. */
  static Map<String, Object> replicationOptions(Map<String, String> replication) {
    Map<String, Object> options = new LinkedHashMap<>();
    replication.forEach(
        (key, value) -> {
          if (!key.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException(
                "cassandra.replication: key " + key + " (expected: class or a data center name)");
          }
          if (key.equals("class")) {
            if (!value.matches("[A-Za-z.]+")) {
              throw new IllegalArgumentException(
                  "cassandra.replication.class: " + value + " (expected: a strategy class)");
            }
            options.put(key, value);
          } else {
            if (!value.matches("[0-9]{1,2}")) {
              throw new IllegalArgumentException(
                  "cassandra.replication." + key + ": " + value + " (expected: a replica count)");
            }
            options.put(key, Integer.parseInt(value));
          }
        });
    if (!options.containsKey("class")) {
      throw new IllegalArgumentException(
          "cassandra.replication.class: missing (expected: a strategy class)");
    }
    return options;
  }
}
