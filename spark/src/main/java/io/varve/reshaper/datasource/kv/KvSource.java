package io.varve.reshaper.datasource.kv;

import io.varve.reshaper.datasource.NamespaceAccess;
import io.varve.reshaper.datasource.StoredNamespace;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * {@code spark.read.format("varve-kv")} and {@code df.write.format("varve-kv")}: the items of a
 * KeyValue namespace, one row per item ({@link ItemColumns}), read from and written to its item and
 * chunk tables with the storage format the server uses ({@code io.varve.format.ItemValues}).
 * docs/spark-data-sources.md is the user's guide.
 */
public final class KvSource implements TableProvider, DataSourceRegister {

  @Override
  public String shortName() {
    return "varve-kv";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return ItemColumns.SCHEMA;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new ItemsTable(NamespaceAccess.open(properties, StoredNamespace.KEY_VALUE));
  }

  /**
   * The namespace as Spark sees it: a table that reads and appends. It accepts any schema so that
   * {@code generation_time} may be left out of a write and a DataFrame's columns are checked here,
   * each error naming its column.
   */
  record ItemsTable(NamespaceAccess access) implements SupportsRead, SupportsWrite {
    @Override
    public String name() {
      return "varve-kv:" + access.namespace().name();
    }

    @Override
    public StructType schema() {
      return ItemColumns.SCHEMA;
    }

    @Override
    public Set<TableCapability> capabilities() {
      return Set.of(
          TableCapability.BATCH_READ,
          TableCapability.BATCH_WRITE,
          TableCapability.ACCEPT_ANY_SCHEMA);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
      return new KvScan.Builder(access);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
      return new KvWrite(access, ItemColumns.check(info.schema()));
    }
  }
}
