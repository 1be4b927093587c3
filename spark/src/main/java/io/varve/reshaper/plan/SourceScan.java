package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.type.DataType;
import java.io.Serializable;
import java.util.List;

/**
 * How a job reads its source, one unit of work at a time.
 *
 * @param selectCql the scan of one token range of a table: two bind markers, start (exclusive) and
 *     end
 * @param partitionKeyCount the first columns of the select list that form the source partition key
 * @param columns the plain columns read, in select order, by their internal names: what a reader of
 *     another source type (a Parquet file) produces, by name
 * @param types their types, as the source schema gives them
 */
public record SourceScan(
    String selectCql, int partitionKeyCount, List<String> columns, List<DataType> types)
    implements Serializable {

  private Object writeReplace() {
    return new Portable(selectCql, partitionKeyCount, columns, new PortableTypes(types));
  }

  /** How a scan travels: its types as {@link PortableTypes}. */
  private record Portable(
      String selectCql, int partitionKeyCount, List<String> columns, PortableTypes types)
      implements Serializable {
    private Object readResolve() {
      return new SourceScan(selectCql, partitionKeyCount, columns, types.types());
    }
  }
}
