package io.varve.cassandra.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.cassandra.TestSessions;
import io.varve.core.error.StorageException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Slice tables as Cassandra holds them: the documented layout, idempotent create and drop. */
class CqlSliceTablesIT {

  static final String KEYSPACE = "cassandra_slice_tables_it";
  static CqlSession session;
  static CqlSliceTables tables;

  @BeforeAll
  static void open() {
    session = TestSessions.open();
    tables = TestSessions.freshKeyspace(session, KEYSPACE);
  }

  @AfterAll
  static void close() {
    session.close();
  }

  static Optional<TableMetadata> table(String name) {
    session.refreshSchema();
    return session.getMetadata().getKeyspace(KEYSPACE).flatMap(k -> k.getTable(name));
  }

  @Test
  void a_slice_table_has_the_documented_key_clustering_order_and_columns() {
    tables.create(KEYSPACE, "layout_20240308").toCompletableFuture().join();

    TableMetadata table = table("layout_20240308").orElseThrow();
    assertThat(table.getPartitionKey())
        .extracting(c -> c.getName().asInternal(), ColumnMetadata::getType)
        .containsExactly(
            tuple("time_series_id", DataTypes.TEXT),
            tuple("time_bucket", DataTypes.TIMESTAMP),
            tuple("event_bucket", DataTypes.INT));
    Map<String, ClusteringOrder> clustering = new LinkedHashMap<>();
    table
        .getClusteringColumns()
        .forEach((column, order) -> clustering.put(column.getName().asInternal(), order));
    assertThat(clustering)
        .containsExactly(
            Map.entry("event_time", ClusteringOrder.DESC),
            Map.entry("event_id", ClusteringOrder.ASC),
            Map.entry("event_item_key", ClusteringOrder.ASC));
    assertThat(table.getColumn("event_item_value").orElseThrow().getType())
        .isEqualTo(DataTypes.BLOB);
    assertThat(table.getColumn("value_metadata").orElseThrow().getType()).isEqualTo(DataTypes.TEXT);
    assertThat(table.getColumns()).hasSize(8);
  }

  @Test
  void create_and_drop_are_idempotent() {
    tables.create(KEYSPACE, "twice_20240308").toCompletableFuture().join();
    tables.create(KEYSPACE, "twice_20240308").toCompletableFuture().join();
    assertThat(table("twice_20240308")).isPresent();

    tables.drop(KEYSPACE, "twice_20240308").toCompletableFuture().join();
    tables.drop(KEYSPACE, "twice_20240308").toCompletableFuture().join();
    assertThat(table("twice_20240308")).isEmpty();
  }

  @Test
  void a_keyspace_is_created_with_the_configured_replication() {
    KeyspaceMetadata keyspace =
        session.getMetadata().getKeyspace(CqlIdentifier.fromInternal(KEYSPACE)).orElseThrow();
    assertThat(keyspace.getReplication())
        .containsEntry("class", "org.apache.cassandra.locator.SimpleStrategy")
        .containsEntry("replication_factor", "1");
  }

  @Test
  void a_table_in_a_keyspace_that_does_not_exist_is_refused_as_the_schema_stands_not_retryable() {
    assertThatThrownBy(
            () ->
                tables
                    .create("cassandra_slice_tables_it_missing", "t_20240308")
                    .toCompletableFuture()
                    .join())
        .cause()
        .isInstanceOfSatisfying(
            StorageException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(StorageException.Reason.REFUSED);
              assertThat(e.retryable()).isFalse();
            });
  }
}
