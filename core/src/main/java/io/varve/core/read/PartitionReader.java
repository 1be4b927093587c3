package io.varve.core.read;

import io.varve.core.event.EventItem;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Reads events from one partition; implemented by the storage, whose failures complete the stage
 * with a {@link io.varve.core.error.StorageException}.
 */
public interface PartitionReader {

  /**
   * The newest events of the partition in {@code [scan.fromMillis, scan.toMillis)}, newest first
   * (ties by event id), that come after {@code cursor} (when not null) and match every filter: at
   * most {@code maxEvents}, each with all its items; fewer, {@linkplain PartitionRead#cut cut},
   * when the reader's {@link ReadBytes} filled up before.
   */
  CompletionStage<PartitionRead> read(
      PartitionScan scan, Cursor cursor, List<EventItem> filters, int maxEvents);
}
