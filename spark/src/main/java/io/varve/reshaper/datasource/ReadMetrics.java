package io.varve.reshaper.datasource;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * What a scan did, summed over its tasks and shown with the scan's node in Spark's SQL tab and in
 * {@code BatchScanExec.metrics()}: the rows fetched from Cassandra and the reads run (token ranges
 * of tables, or partitions read by key). A pushed filter shows there as fewer of both.
 */
public final class ReadMetrics {

  public static final String ROWS_FETCHED = "rowsFetched";
  public static final String READS = "cqlReads";

  private ReadMetrics() {}

  public static CustomMetric[] supported() {
    return new CustomMetric[] {new RowsFetched(), new Reads()};
  }

  public static CustomTaskMetric task(String name, long value) {
    return new CustomTaskMetric() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long value() {
        return value;
      }
    };
  }

  /** Rows fetched from Cassandra. */
  public static final class RowsFetched extends CustomSumMetric {
    @Override
    public String name() {
      return ROWS_FETCHED;
    }

    @Override
    public String description() {
      return "rows fetched from Cassandra";
    }
  }

  /** Reads run: token ranges of slice tables, or partitions read by key. */
  public static final class Reads extends CustomSumMetric {
    @Override
    public String name() {
      return READS;
    }

    @Override
    public String description() {
      return "CQL reads (token ranges or partitions)";
    }
  }
}
