package io.varve.core.store;

import io.varve.core.error.StorageException;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.namespace.Consistency;
import io.varve.core.read.PartitionReader;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ScanBudget;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The primary store of events: slice tables in a keyspace. A failure of the store completes a stage
 * with a {@link StorageException} (classified by the implementation); a value read back that cannot
 * be decoded, with a {@link VarveException} of kind INTERNAL.
 */
public interface EventStore {

  /**
   * Writes each partition's events as one unlogged batch (split when large), with a bounded number
   * of batches in flight. Completes when every batch is acknowledged or failed, with the indexes
   * (in the write request) of the events that failed and why, classified (a {@link
   * StorageException} for a failure of the store); an event is written durably when it is not among
   * them.
   */
  CompletionStage<Map<Integer, VarveException>> write(
      String keyspace, Map<PartitionKey, List<PlacedEvent>> partitions, Consistency consistency);

  /** Reads the partitions of one time series in slice tables of {@code keyspace}. */
  default PartitionReader reader(String keyspace, String timeSeriesId, Consistency consistency) {
    return reader(keyspace, timeSeriesId, consistency, ScanBudget.NONE);
  }

  /**
   * As {@link #reader(String, String, Consistency)}, each fetch asking {@code budget} before it
   * starts and tracked by it, so that stopping the budget cancels the fetches in flight; a fetch
   * the budget refuses fails the read with an UNAVAILABLE {@link VarveException}.
   */
  default PartitionReader reader(
      String keyspace, String timeSeriesId, Consistency consistency, ScanBudget budget) {
    return reader(keyspace, timeSeriesId, consistency, budget, ReadBytes.unlimited());
  }

  /**
   * As {@link #reader(String, String, Consistency, ScanBudget)}, the events kept held in {@code
   * bytes}: once it is full, each partition read stops before its next fetch, {@linkplain
   * io.varve.core.read.PartitionRead#cut cut} after at least one event.
   */
  PartitionReader reader(
      String keyspace,
      String timeSeriesId,
      Consistency consistency,
      ScanBudget budget,
      ReadBytes bytes);

  /**
   * Reads every event of one slice table whose time is in [fromMillis, toMillis), all series, in
   * storage order, and hands them to {@code sink} about {@code batchSize} at a time; the next rows
   * are read once the sink's stage completes. Completes with the number of events handed over.
   */
  CompletionStage<Long> scan(
      String keyspace,
      String table,
      long fromMillis,
      long toMillis,
      Consistency consistency,
      int batchSize,
      Function<List<Event>, CompletionStage<Void>> sink);
}
