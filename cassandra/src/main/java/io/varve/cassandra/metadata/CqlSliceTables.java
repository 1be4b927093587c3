package io.varve.cassandra.metadata;

import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.alterTable;
import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createKeyspace;
import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.createTable;
import static com.datastax.oss.driver.api.querybuilder.SchemaBuilder.dropTable;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.querybuilder.schema.CreateTableWithOptions;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.cassandra.session.SchemaChanges;
import io.varve.core.partitioning.CompactionPolicy;
import io.varve.core.store.SliceTables;
import io.varve.format.SliceTable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
  private volatile CompletableFuture<SliceCompactions.Backend> backend;

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
    return run(definition(keyspace, table).build());
  }

  @Override
  public CompletionStage<Optional<String>> create(
      String keyspace, String table, CompactionPolicy.Open open, Duration writeLife) {
    if (open == CompactionPolicy.Open.CLUSTER_DEFAULT) {
      return create(keyspace, table).thenApply(v -> Optional.empty());
    }
    SimpleStatement statement =
        definition(keyspace, table)
            .withOption("compaction", SliceCompactions.timeWindow(writeLife))
            .build();
    return run(statement).thenApply(v -> Optional.of(SliceCompactions.TIME_WINDOW));
  }

  /** The slice table's columns and keys, created if it does not exist. */
  private static CreateTableWithOptions definition(String keyspace, String table) {
    return createTable(CqlIdentifier.fromInternal(keyspace), CqlIdentifier.fromInternal(table))
        .ifNotExists()
        .withPartitionKey(SliceTable.TIME_SERIES_ID, DataTypes.TEXT)
        .withPartitionKey(SliceTable.TIME_BUCKET, DataTypes.TIMESTAMP)
        .withPartitionKey(SliceTable.EVENT_BUCKET, DataTypes.INT)
        .withClusteringColumn(SliceTable.EVENT_TIME, DataTypes.TIMESTAMP)
        .withClusteringColumn(SliceTable.EVENT_ID, DataTypes.TEXT)
        .withClusteringColumn(SliceTable.EVENT_ITEM_KEY, DataTypes.BLOB)
        .withColumn(SliceTable.EVENT_ITEM_VALUE, DataTypes.BLOB)
        .withColumn(SliceTable.VALUE_METADATA, DataTypes.TEXT)
        .withClusteringOrder(SliceTable.EVENT_TIME, ClusteringOrder.DESC)
        .withClusteringOrder(SliceTable.EVENT_ID, ClusteringOrder.ASC)
        .withClusteringOrder(SliceTable.EVENT_ITEM_KEY, ClusteringOrder.ASC);
  }

  @Override
  public CompletionStage<Optional<String>> closedStrategy(
      String keyspace, CompactionPolicy.Closed closed) {
    if (closed == CompactionPolicy.Closed.UNCHANGED) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return backend().thenApply(b -> Optional.of(SliceCompactions.closedClass(closed, b)));
  }

  @Override
  public CompletionStage<Void> compactClosed(
      String keyspace, String table, CompactionPolicy.Closed closed) {
    if (closed == CompactionPolicy.Closed.UNCHANGED) {
      return CompletableFuture.completedFuture(null);
    }
    return backend()
        .thenCompose(
            b ->
                run(
                    alterTable(
                            CqlIdentifier.fromInternal(keyspace), CqlIdentifier.fromInternal(table))
                        .withOption("compaction", SliceCompactions.closed(closed, b))
                        .build()));
  }

  @Override
  public CompletionStage<Optional<String>> compaction(String keyspace, String table) {
    SimpleStatement statement =
        SimpleStatement.newInstance(
                "SELECT compaction FROM system_schema.tables"
                    + " WHERE keyspace_name = ? AND table_name = ?",
                keyspace,
                table)
            .setConsistencyLevel(DefaultConsistencyLevel.ONE);
    return CqlFailures.translated(
        session
            .executeAsync(statement)
            .thenApply(
                rs -> {
                  Row row = rs.one();
                  if (row == null) {
                    return Optional.<String>empty();
                  }
                  String cls = row.getMap(0, String.class, String.class).get("class");
                  return Optional.ofNullable(cls).map(SliceCompactions::simpleName);
                }));
  }

  /** The cluster's kind and version, asked once. */
  private CompletionStage<SliceCompactions.Backend> backend() {
    CompletableFuture<SliceCompactions.Backend> known = backend;
    if (known != null && !known.isCompletedExceptionally()) {
      return known;
    }
    CompletableFuture<SliceCompactions.Backend> asked =
        CqlFailures.translated(
                session.executeAsync(
                    SimpleStatement.newInstance("SELECT release_version FROM system.local")))
            .thenCompose(
                local -> {
                  String release = local.one().getString(0);
                  // a table of ScyllaDB's only: Cassandra answers that it does not exist
                  return session
                      .executeAsync(
                          SimpleStatement.newInstance("SELECT version FROM system.versions"))
                      .handle(
                          (rs, error) -> {
                            Row row = error == null ? rs.one() : null;
                            return row == null
                                ? SliceCompactions.Backend.cassandra(release)
                                : SliceCompactions.Backend.scylla(row.getString(0));
                          });
                })
            .toCompletableFuture();
    backend = asked;
    return asked;
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
  public CompletionStage<Boolean> hasRows(String keyspace, String table) {
    SimpleStatement statement =
        SimpleStatement.newInstance(
                "SELECT time_series_id FROM "
                    + CqlIdentifier.fromInternal(keyspace).asCql(true)
                    + "."
                    + CqlIdentifier.fromInternal(table).asCql(true)
                    + " LIMIT 1")
            .setTimeout(timeout);
    return CqlFailures.translated(
        session.executeAsync(statement).thenApply(rs -> rs.one() != null));
  }

  @Override
  public io.varve.core.partitioning.SliceHistogram measure(
      String keyspace, String table, long maxRows, int sampleRows) {
    return new SliceCensus(session, timeout, java.time.Clock.systemUTC(), new java.util.Random())
        .measure(keyspace, table, maxRows, sampleRows);
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
