package io.varve.reshaper.datasource.kv;

import io.varve.core.kv.KvLimits;
import io.varve.reshaper.config.ConfigException;
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
 * A put of items into a KeyValue namespace. The idempotency token of every item is fixed on the
 * driver when the write is planned: the {@code token} option's nonce and the row's {@code
 * generation_time}, else the {@code generationTime} option, else the planning time. Items already
 * written stay written when the job fails: a rerun with the same token and generation times writes
 * the same cells at the same timestamps (and the same chunks), so it leaves one copy, and an item
 * written since with a later generation time keeps its newer value.
 */
final class KvWrite implements WriteBuilder, Write, BatchWrite {

  private final NamespaceAccess access;
  private final ItemColumns.Positions columns;
  private final long maxBadRows;

  KvWrite(NamespaceAccess access, ItemColumns.Positions columns) {
    this.access = access;
    this.columns = columns;
    this.maxBadRows = access.options().get(NamespaceSourceOptions.MAX_BAD_ROWS);
    String token = access.options().get(NamespaceSourceOptions.TOKEN);
    if (token.codePointCount(0, token.length()) > KvLimits.MAX_TOKEN_CHARS) {
      throw new ConfigException(
          NamespaceSourceOptions.TOKEN.key(),
          token,
          "1.." + KvLimits.MAX_TOKEN_CHARS + " characters (an idempotency token's nonce)");
    }
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
    Instant generation =
        access.options().optional(NamespaceSourceOptions.GENERATION_TIME).orElseGet(Instant::now);
    return new ItemWriter.Factory(
        access.connector(),
        access.namespace(),
        access.options().get(NamespaceSourceOptions.METADATA_KEYSPACE),
        access.consistencyLevel(),
        columns,
        access.options().get(NamespaceSourceOptions.TOKEN),
        Math.addExact(
            Math.multiplyExact(generation.getEpochSecond(), 1_000_000L),
            generation.getNano() / 1000),
        access.options().get(NamespaceSourceOptions.COMPRESSION_THRESHOLD),
        access.options().get(NamespaceSourceOptions.CHUNK_THRESHOLD),
        access.options().get(NamespaceSourceOptions.CHUNK_SIZE),
        maxBadRows);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    BadRows.commit(access.namespace().name(), messages, maxBadRows);
  }

  /** Items already written stay: a rerun writes them again, to the same cells. */
  @Override
  public void abort(WriterCommitMessage[] messages) {}
}
