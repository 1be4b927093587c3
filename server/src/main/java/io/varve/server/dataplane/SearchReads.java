package io.varve.server.dataplane;

import io.varve.core.event.Event;
import io.varve.core.index.IndexStore;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.read.BucketScan;
import io.varve.core.read.PartitionScan;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ReadPlanner;
import io.varve.core.read.ResponseMemory;
import io.varve.core.read.ScanBudget;
import io.varve.core.store.EventStore;
import io.varve.server.controlplane.NamespaceEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Reads back the full events of a page of search hits: from the hit itself (FULL_EVENT) or from the
 * primary store (REVERSE_INDEX; an event the primary store no longer holds, e.g. dropped by its
 * retention, is left out). The reads run in parallel within the page's {@link ScanBudget}: when its
 * deadline passes, the page keeps the longest run of leading hits already read and the other reads
 * are cancelled. A page with no hit read yet waits for its first one, so that each page makes
 * progress.
 */
final class SearchReads {

  /** The events of the first {@code hitsRead} hits of a page, in hit order. */
  record Read(List<Event> events, int hitsRead) {}

  private final EventStore events;

  SearchReads(EventStore events) {
    this.events = events;
  }

  /**
   * The events of {@code hits}, all of them unless the budget cuts the reads short; those read from
   * the primary store held in {@code memory} as they are read.
   */
  CompletionStage<Read> read(
      NamespaceEntry ns, List<IndexStore.Hit> hits, ScanBudget budget, ResponseMemory memory) {
    ReadBytes bytes = ReadBytes.unlimited(memory);
    List<CompletableFuture<Optional<Event>>> reads = new ArrayList<>();
    for (IndexStore.Hit hit : hits) {
      reads.add(
          hit.items().isPresent()
              ? CompletableFuture.completedFuture(
                  Optional.of(
                      new Event(
                          hit.timeSeriesId(),
                          hit.eventTimeMillis(),
                          hit.eventId(),
                          hit.items().get())))
              : primary(ns, hit, budget, bytes).toCompletableFuture());
    }
    CompletableFuture<Read> result = new CompletableFuture<>();
    CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .whenComplete(
            (v, error) -> {
              if (error != null) {
                result.completeExceptionally(error);
              } else {
                result.complete(prefix(reads, reads.size()));
              }
            });
    budget.whenExpired(() -> cut(reads, result, budget));
    return result;
  }

  /** Ends the page with the hits read so far, or at the first read when none is. */
  private static void cut(
      List<CompletableFuture<Optional<Event>>> reads,
      CompletableFuture<Read> result,
      ScanBudget budget) {
    int read = 0;
    while (read < reads.size()
        && reads.get(read).isDone()
        && !reads.get(read).isCompletedExceptionally()) {
      read++;
    }
    if (read == 0 && !reads.isEmpty()) {
      reads.get(0).thenRun(() -> cut(reads, result, budget));
      return;
    }
    if (result.complete(prefix(reads, read))) {
      budget.stop(); // the answer is set: the cancelled reads' failures are ignored
    }
  }

  private static Read prefix(List<CompletableFuture<Optional<Event>>> reads, int count) {
    return new Read(
        reads.subList(0, count).stream()
            .map(CompletableFuture::join)
            .flatMap(Optional::stream)
            .toList(),
        count);
  }

  private CompletionStage<Optional<Event>> primary(
      NamespaceEntry ns, IndexStore.Hit hit, ScanBudget budget, ReadBytes bytes) {
    long time = hit.eventTimeMillis();
    List<BucketScan> plan = ReadPlanner.plan(ns.slices(), time, time + 1, null, 64);
    if (plan.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    BucketScan bucket = plan.get(0);
    int eventBucket =
        EventBuckets.of(hit.timeSeriesId(), time, hit.eventId(), bucket.eventBuckets());
    return events
        .reader(
            ns.settings().keyspace(),
            hit.timeSeriesId(),
            ns.settings().consistency(),
            budget,
            bytes)
        .read(new PartitionScan(bucket, eventBucket), null, List.of(), 1000)
        .thenApply(
            found ->
                found.events().stream().filter(e -> e.eventId().equals(hit.eventId())).findFirst());
  }
}
