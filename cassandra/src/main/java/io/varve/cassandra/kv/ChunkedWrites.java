package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.error.VarveException;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ValueMetadata;
import io.varve.format.ItemValues;
import io.varve.format.ValueCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The stored form of a PutItems' items, and the staging of those too large for their row: each is
 * logged in the staging log ({@link CqlChunkLog}), then written as chunks at the token's timestamp,
 * before the item rows commit them. How a value is stored is the format's ({@link ItemValues}).
 */
final class ChunkedWrites {

  /**
   * Test-only: milliseconds to pause after the chunks of a request are written and before its item
   * rows commit them, so that a test can kill the process in between. Honoured only when set.
   */
  static final String PAUSE_PROPERTY = "varve.test.kv.pauseAfterChunkStaging";

  /** An item as it goes into its row. */
  record Stored(byte[] key, ItemValues.Stored stored) {}

  private final CqlChunkStore store;
  private final CqlChunkLog log;
  private final ValueCodec codec;
  private final KvChunking chunking;
  private final Clock clock;

  ChunkedWrites(
      CqlChunkStore store, CqlChunkLog log, ValueCodec codec, KvChunking chunking, Clock clock) {
    this.store = store;
    this.log = log;
    this.codec = codec;
    this.chunking = chunking;
    this.clock = clock;
  }

  /** Stages the chunks of the large values of {@code items}; completes with every item's row. */
  CompletionStage<List<Stored>> stage(
      KvNamespace ns, String id, IdempotencyToken token, List<KvItem> items) {
    List<Stored> rows = new ArrayList<>(items.size());
    CompletionStage<Void> staged = CompletableFuture.completedFuture(null);
    Instant started = clock.instant();
    ConsistencyLevel consistency = ConsistencyLevels.of(ns.consistency());
    for (KvItem item : items) {
      ItemValues.Stored stored =
          ItemValues.store(
              item.value(),
              item.compression() == ValueMetadata.Compression.ZSTD,
              item.valueSize(),
              token.token(),
              codec,
              chunking);
      rows.add(new Stored(item.key(), stored));
      if (!stored.isChunked()) {
        continue;
      }
      if (log == null) {
        throw new IllegalStateException("chunked value without a staging log");
      }
      int chunks = stored.metadataFields().chunks();
      CqlChunkStore.Version version =
          new CqlChunkStore.Version(
              ns.keyspace(), ns.table(), id, item.key(), token.generationMicros(), token.token());
      CqlChunkLog.Entry entry =
          new CqlChunkLog.Entry(
              started.plus(chunking.grace()),
              ns.keyspace(),
              ns.table(),
              id,
              item.key(),
              token.generationMicros(),
              token.token(),
              chunks);
      // one value after the other: the request's chunks in flight stay at writeConcurrency
      staged =
          staged
              .thenCompose(v -> log.stage(entry))
              .thenCompose(
                  v ->
                      store.write(
                          version,
                          stored.stored(),
                          chunking.chunkSize(),
                          chunking.writeConcurrency(),
                          consistency));
    }
    return staged.thenApply(
        v -> {
          pauseForTests();
          Duration took = Duration.between(started, clock.instant());
          if (took.compareTo(chunking.grace().dividedBy(2)) > 0) {
            // the sweeper may take the chunks of a value staged longer than the grace ago
            throw new VarveException(
                VarveException.Kind.UNAVAILABLE,
                "writing the chunks took "
                    + took.toMillis()
                    + " ms, more than half of kv.chunks.grace; nothing was committed, retry");
          }
          return rows;
        });
  }

  private static void pauseForTests() {
    String pause = System.getProperty(PAUSE_PROPERTY);
    if (pause != null) {
      try {
        Thread.sleep(Long.parseLong(pause));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
