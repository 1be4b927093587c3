package io.varve.server.buffer;

import io.varve.core.event.Event;
import io.varve.core.write.PartitionKey;
import io.varve.server.controlplane.NamespaceEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The fire-and-forget events of one namespace waiting to be written, bounded by bytes. The bytes of
 * a batch leave the queue when the drainer takes it, so a namespace holds at most its capacity
 * queued plus one batch being written. Thread-safe.
 */
final class NamespaceQueue {

  /** One queued event and what it costs; {@code attempts} counts failed writes of it. */
  record Queued(Event event, PartitionKey partition, long bytes, long queuedNanos, int attempts) {}

  private final ArrayDeque<Queued> events = new ArrayDeque<>();

  /** The namespace as its latest writer saw it: drains follow an UpdateNamespace from then on. */
  volatile NamespaceEntry entry;

  private long bytes;
  private boolean draining;

  /** Whether {@code batch} fit within {@code capacity} and was queued whole; never partly. */
  synchronized boolean offer(List<Queued> batch, long batchBytes, long capacity) {
    if (bytes + batchBytes > capacity) {
      return false;
    }
    events.addAll(batch);
    bytes += batchBytes;
    return true;
  }

  /**
   * Everything queued, when no batch of this namespace is being written and the oldest event has
   * waited {@code coalesceNanos} or the queue holds {@code flushBytes}; else an empty list. The
   * caller must {@link #drained} a non-empty batch once written.
   */
  synchronized List<Queued> takeIfDue(long nowNanos, long coalesceNanos, long flushBytes) {
    if (draining || events.isEmpty()) {
      return List.of();
    }
    if (nowNanos - events.peekFirst().queuedNanos() < coalesceNanos && bytes < flushBytes) {
      return List.of();
    }
    List<Queued> batch = new ArrayList<>(events);
    events.clear();
    bytes = 0;
    draining = true;
    return batch;
  }

  /**
   * Ends the write of the batch taken last; {@code retry} goes back to the head of the queue, in
   * its order, whatever the capacity (its bytes were counted when it was offered).
   */
  synchronized void drained(List<Queued> retry) {
    for (int i = retry.size() - 1; i >= 0; i--) {
      Queued q = retry.get(i);
      events.addFirst(q);
      bytes += q.bytes();
    }
    draining = false;
  }

  synchronized int events() {
    return events.size();
  }

  synchronized long bytes() {
    return bytes;
  }

  /** Whether nothing is queued and no batch is being written. */
  synchronized boolean idle() {
    return events.isEmpty() && !draining;
  }

  /** Seconds the oldest queued event has waited; 0 when none. */
  synchronized double oldestAgeSeconds(long nowNanos) {
    return events.isEmpty() ? 0 : (nowNanos - events.peekFirst().queuedNanos()) / 1e9;
  }

  /** Removes and returns every queued event (shutdown, once nothing more will be written). */
  synchronized List<Queued> clear() {
    List<Queued> left = new ArrayList<>(events);
    events.clear();
    bytes = 0;
    return left;
  }
}
