package io.varve.core.store;

import io.varve.core.namespace.Consistency;
import io.varve.core.read.PartitionReader;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/** The primary store of events: slice tables in a keyspace. */
public interface EventStore {

  /**
   * Writes each partition's events as one unlogged batch (split when large), with a bounded number
   * of batches in flight. Completes when every batch is acknowledged or failed, with the indexes
   * (in the write request) of the events that failed and why; an event is written durably when
   * it is not among them.
   */
  CompletionStage<Map<Integer, Throwable>> write(String keyspace, Map<PartitionKey, List<PlacedEvent>> partitions,
      Consistency consistency);

  /** Reads the partitions of one time series in slice tables of {@code keyspace}. */
  PartitionReader reader(String keyspace, String timeSeriesId, Consistency consistency);
}
