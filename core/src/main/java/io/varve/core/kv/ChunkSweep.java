package io.varve.core.kv;

import java.util.concurrent.CompletionStage;

/**
 * The removal of chunks that no committed item refers to: values staged in chunks by a write that
 * never committed (a crash between the chunks and the item row), or replaced or deleted since. The
 * server's sweeper runs a {@link #pass} at each {@link KvChunking#sweepInterval()}; the storage
 * module implements it over its staging log.
 */
public interface ChunkSweep {

  /**
   * What a pass did.
   *
   * @param examined entries looked at
   * @param chunksRemoved chunks deleted
   * @param valuesRemoved values whose chunks were deleted
   * @param failures entries whose handling failed (left for a later pass)
   */
  record Result(long examined, long chunksRemoved, long valuesRemoved, long failures) {}

  /** Sweeps once; fails only when the sweep cannot run at all (its log cannot be read). */
  CompletionStage<Result> pass();
}
