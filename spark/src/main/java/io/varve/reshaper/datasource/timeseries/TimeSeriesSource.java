package io.varve.reshaper.datasource.timeseries;

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
 * {@code spark.read.format("varve-timeseries")} and {@code df.write.format("varve-timeseries")}:
 * the events of a TimeSeries namespace, one row per event item ({@link EventColumns}), read from
 * and written to its slice tables with the storage format the server uses.
 * docs/spark-data-sources.md is the user's guide.
 */
public final class TimeSeriesSource implements TableProvider, DataSourceRegister {

  @Override
  public String shortName() {
    return "varve-timeseries";
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return EventColumns.SCHEMA;
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return new EventTable(NamespaceAccess.open(properties, StoredNamespace.TIME_SERIES));
  }

  /** The namespace as Spark sees it: a table that reads and appends. */
  record EventTable(NamespaceAccess access) implements SupportsRead, SupportsWrite {
    @Override
    public String name() {
      return "varve-timeseries:" + access.namespace().name();
    }

    @Override
    public StructType schema() {
      return EventColumns.SCHEMA;
    }

    @Override
    public Set<TableCapability> capabilities() {
      return Set.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
      return new TimeSeriesScan.Builder(access);
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
      EventColumns.check(info.schema());
      return new TimeSeriesWrite(access);
    }
  }
}
