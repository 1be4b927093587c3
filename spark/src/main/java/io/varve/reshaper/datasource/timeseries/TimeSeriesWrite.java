package io.varve.reshaper.datasource.timeseries;

import io.varve.reshaper.config.NamespaceSourceOptions;
import io.varve.reshaper.datasource.BadRows;
import io.varve.reshaper.datasource.NamespaceAccess;
import java.time.Instant;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * An append to a TimeSeries namespace. The namespace's accept limit, slices and the time of the
 * write ("now", for the write window) are fixed on the driver when the write is planned, so every
 * task places rows alike. Rows already written stay written when the job fails: a rerun writes the
 * same rows again, to the same cells (each row's identity is its primary key), and leaves one copy.
 */
final class TimeSeriesWrite implements WriteBuilder, Write, BatchWrite {

  private final NamespaceAccess access;
  private final long maxBadRows;

  TimeSeriesWrite(NamespaceAccess access) {
    this.access = access;
    this.maxBadRows = access.options().get(NamespaceSourceOptions.MAX_BAD_ROWS);
  }

  @Override
  public Write build() {
    return this;
  }

  @Override
  public BatchWrite toBatch() {
    return this;
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return new EventWriter.Factory(
        access.connector(),
        access.namespace(),
        access.consistencyLevel(),
        Instant.now().toEpochMilli(),
        access.options().get(NamespaceSourceOptions.COMPRESSION_THRESHOLD),
        maxBadRows);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    BadRows.commit(access.namespace().name(), messages, maxBadRows);
  }

  /** Rows already written stay: a rerun writes them again, to the same cells. */
  @Override
  public void abort(WriterCommitMessage[] messages) {}
}
