package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What the planner knows of a table: its name, its key columns in order and its other columns.
 * Built from the driver's metadata, or directly by tests. Immutable.
 *
 * @param keyspace the keyspace
 * @param name the table
 * @param partitionKey the partition-key columns, in order
 * @param clustering the clustering columns, in order
 * @param others every other column (static and regular), in the metadata's order
 */
public record TableSchema(
    CqlIdentifier keyspace,
    CqlIdentifier name,
    List<Column> partitionKey,
    List<Column> clustering,
    List<Column> others) {

  /** One column. */
  public record Column(CqlIdentifier name, DataType type) {
    /** The name in CQL form, quoted when needed. */
    public String cql() {
      return name.asCql(true);
    }
  }

  public TableSchema {
    partitionKey = List.copyOf(partitionKey);
    clustering = List.copyOf(clustering);
    others = List.copyOf(others);
  }

  /** The schema of a table the driver described. */
  public static TableSchema of(TableMetadata table) {
    List<Column> others = new ArrayList<>();
    for (ColumnMetadata c : table.getColumns().values()) {
      if (!table.getPrimaryKey().contains(c)) {
        others.add(column(c));
      }
    }
    return new TableSchema(
        table.getKeyspace(),
        table.getName(),
        table.getPartitionKey().stream().map(TableSchema::column).toList(),
        table.getClusteringColumns().keySet().stream().map(TableSchema::column).toList(),
        others);
  }

  private static Column column(ColumnMetadata c) {
    return new Column(c.getName(), c.getType());
  }

  /** The partition key, then the clustering columns. */
  public List<Column> primaryKey() {
    List<Column> key = new ArrayList<>(partitionKey);
    key.addAll(clustering);
    return key;
  }

  /** Every column: the primary key first, then the others. */
  public List<Column> columns() {
    List<Column> all = primaryKey();
    all.addAll(others);
    return all;
  }

  /** The column of that name. */
  public Optional<Column> column(CqlIdentifier column) {
    return columns().stream().filter(c -> c.name().equals(column)).findFirst();
  }

  /** True for a primary-key column. */
  public boolean isKey(CqlIdentifier column) {
    return primaryKey().stream().anyMatch(c -> c.name().equals(column));
  }

  /** {@code keyspace.table} in CQL form. */
  public String qualified() {
    return keyspace.asCql(true) + "." + name.asCql(true);
  }

  /** The names of {@code columns}, comma-separated, for messages. */
  public static String names(List<Column> columns) {
    return columns.stream().map(Column::cql).collect(Collectors.joining(", "));
  }
}
