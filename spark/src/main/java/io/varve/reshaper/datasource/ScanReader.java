package io.varve.reshaper.datasource;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.reshaper.copy.RangeScan;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/**
 * What the read tasks of both data sources share: a part's reads run in order, each a paged query
 * ({@link RangeScan}: pages of at most {@code fetchSize} rows, kept near 4 MiB), the next {@value
 * #LOOKAHEAD} started ahead, so that a part of many small reads waits for one first page at a time,
 * not for each in turn (each holds at most two pages). Each row fetched becomes a DataFrame row
 * ({@link #convert}, or none); the rows fetched and reads run are the scan's metrics ({@link
 * ReadMetrics}); a table gone under the task fails it saying so ({@link TableGone}).
 */
public abstract class ScanReader implements PartitionReader<InternalRow> {

  /** Reads started ahead of the one consumed. */
  public static final int LOOKAHEAD = 4;

  protected final CqlSession session;
  private final String namespace;
  private final String consistency;
  private final int fetchSize;
  private final ArrayDeque<RangeScan> started = new ArrayDeque<>();
  private Iterator<BoundStatement> reads = Collections.emptyIterator();
  private Iterator<Row> rows;
  private InternalRow current;
  private long rowsFetched;
  private long readsRun;

  protected ScanReader(
      CassandraConnector connector, String namespace, String consistency, int fetchSize) {
    this.session = connector.openSession();
    this.namespace = namespace;
    this.consistency = consistency;
    this.fetchSize = fetchSize;
  }

  /** The part's reads, made one at a time as they are started. */
  protected final void reads(Iterator<BoundStatement> reads) {
    this.reads = reads;
  }

  /** The DataFrame row of a fetched row, or null to skip it. */
  protected abstract InternalRow convert(Row row);

  @Override
  public final boolean next() {
    try {
      return advance();
    } catch (RuntimeException e) {
      throw TableGone.translate(e, namespace);
    }
  }

  private boolean advance() {
    while (true) {
      while (rows == null || !rows.hasNext()) {
        while (started.size() < LOOKAHEAD && reads.hasNext()) {
          started.add(new RangeScan(session, reads.next(), fetchSize, consistency));
        }
        if (started.isEmpty()) {
          return false;
        }
        rows = started.poll();
        readsRun++;
      }
      Row row = rows.next();
      rowsFetched++;
      InternalRow converted = convert(row);
      if (converted != null) {
        current = converted;
        return true;
      }
    }
  }

  @Override
  public final InternalRow get() {
    return current;
  }

  @Override
  public final CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {
      ReadMetrics.task(ReadMetrics.ROWS_FETCHED, rowsFetched),
      ReadMetrics.task(ReadMetrics.READS, readsRun)
    };
  }

  @Override
  public final void close() {
    session.close();
  }
}
