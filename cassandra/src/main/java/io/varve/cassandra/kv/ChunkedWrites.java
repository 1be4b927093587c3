package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.error.VarveException;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvCommit;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvPart;
import io.varve.core.kv.ValueMetadata;
import io.varve.format.ItemValues;
import io.varve.format.ValueCodec;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.zip.CRC32C;

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

  /** Half of the grace, the longest a write of chunks may take (computed once: BigDecimal). */
  private final Duration halfGrace;

  private final Clock clock;

  ChunkedWrites(
      CqlChunkStore store, CqlChunkLog log, ValueCodec codec, KvChunking chunking, Clock clock) {
    this.store = store;
    this.log = log;
    this.codec = codec;
    this.chunking = chunking;
    this.halfGrace = chunking.grace().dividedBy(2);
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
          CqlChunkStore.Version.of(ns, id, item.key(), token.generationMicros(), token.token());
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
          if (took.compareTo(halfGrace) > 0) {
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

  /**
   * Stages parts a client sent (the chunked protocol): for each key, the log entry first, then each
   * part's chunk and, once written, its record (size and CRC32C) that the commit checks. Parts of a
   * key whose value this token already committed are left as they are: a replay or a late hedge
   * cannot change a committed value.
   *
   * @param committed whether the value of a key is already committed by this token
   */
  CompletionStage<Void> stageParts(
      KvNamespace ns,
      String id,
      IdempotencyToken token,
      List<KvPart> parts,
      java.util.function.Predicate<byte[]> committed) {
    if (log == null) {
      throw new IllegalStateException("parts without a staging log");
    }
    java.util.TreeMap<byte[], List<KvPart>> byKey =
        new java.util.TreeMap<>(io.varve.core.kv.KeyRange::compare);
    for (KvPart part : parts) {
      byKey.computeIfAbsent(part.key(), k -> new ArrayList<>()).add(part);
    }
    ConsistencyLevel consistency = ConsistencyLevels.of(ns.consistency());
    // due a grace period after the token, whichever request of the version logs it: every part
    // and the commit are written while the token is at most kv.limits.maxTokenAge old
    Instant due =
        Instant.EPOCH.plus(token.generationMicros(), ChronoUnit.MICROS).plus(chunking.grace());
    CompletionStage<Void> staged = CompletableFuture.completedFuture(null);
    for (var entry : byKey.entrySet()) {
      byte[] key = entry.getKey();
      List<KvPart> ofKey = entry.getValue();
      if (committed.test(key)) {
        continue;
      }
      int highest = ofKey.stream().mapToInt(KvPart::chunk).max().orElseThrow();
      CqlChunkStore.Version version =
          CqlChunkStore.Version.of(ns, id, key, token.generationMicros(), token.token());
      CqlChunkLog.Entry logged =
          new CqlChunkLog.Entry(
              due,
              ns.keyspace(),
              ns.table(),
              id,
              key,
              token.generationMicros(),
              token.token(),
              highest + 1);
      staged =
          staged
              .thenCompose(v -> log.stageParts(logged))
              .thenCompose(
                  v ->
                      CqlChunkStore.bounded(
                          ofKey.size(),
                          chunking.writeConcurrency(),
                          i -> {
                            KvPart part = ofKey.get(i);
                            CRC32C crc = new CRC32C();
                            crc.update(part.value().duplicate());
                            CqlChunkLog.Part record =
                                new CqlChunkLog.Part(
                                    part.chunk(), part.value().remaining(), (int) crc.getValue());
                            long timestamp =
                                ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
                            return store
                                .write(version, part.chunk(), part.value(), timestamp, consistency)
                                .thenCompose(
                                    w ->
                                        log.recordPart(
                                            version, record, chunking.grace(), timestamp));
                          }));
    }
    return staged;
  }

  /**
   * The rows of values committed from their staged parts, once every part is checked against the
   * commit: the parts {@code 0..chunkCount-1} all staged and no other, of one size but the last,
   * adding up to the commit's size and CRC32C (combined from the parts' own, without reading them
   * back). A value the client compressed is sized by the frame header of its first part.
   */
  CompletionStage<List<Stored>> commit(
      KvNamespace ns, String id, IdempotencyToken token, List<KvCommit> commits) {
    List<Stored> rows = new ArrayList<>(commits.size());
    CompletionStage<Void> checked = CompletableFuture.completedFuture(null);
    for (KvCommit commit : commits) {
      CqlChunkStore.Version version =
          CqlChunkStore.Version.of(ns, id, commit.key(), token.generationMicros(), token.token());
      checked =
          checked
              .thenCompose(v -> log.parts(version, chunking.maxParts() + 1))
              .thenCompose(
                  parts -> {
                    int partSize = StagedParts.check(commit, parts);
                    if (commit.compression() != ValueMetadata.Compression.ZSTD) {
                      return CompletableFuture.completedFuture(
                          stored(commit, token, commit.valueSize(), partSize));
                    }
                    return store
                        .read(version, 0, ConsistencyLevels.of(ns.consistency()))
                        .thenApply(
                            first ->
                                stored(
                                    commit,
                                    token,
                                    StagedParts.declaredSize(commit, first, chunking),
                                    partSize));
                  })
              .thenAccept(rows::add);
    }
    return checked.thenApply(v -> rows);
  }

  private static Stored stored(
      KvCommit commit, IdempotencyToken token, long valueSize, int partSize) {
    ValueMetadata m =
        ValueMetadata.chunked(
            token.token(),
            valueSize,
            commit.compression(),
            commit.chunkCount(),
            partSize,
            commit.valueSize(),
            commit.crc32c());
    return new Stored(commit.key(), new ItemValues.Stored(m, m.encode(), ByteBuffer.allocate(0)));
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
