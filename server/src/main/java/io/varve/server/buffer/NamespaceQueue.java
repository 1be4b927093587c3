package io.varve.server.buffer;

import io.varve.core.event.Event;
import io.varve.core.write.PartitionKey;
import io.varve.server.controlplane.NamespaceEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The fire-and-forget events of one namespace waiting to be written, bounded by bytes, grouped by
 * partition. They leave in slices: the partition of the oldest queued event with every event queued
 * for it, then the next partition in the order their oldest events came, until the slice holds its
 * bytes. So events of one partition that came in many requests are written together (the
 * coalescing), and the oldest are written first. Slices are small and a few are written at a time
 * (a {@link DrainWindow}): the store is kept steadily busy, never handed everything at once. The
 * bytes of a slice leave the queue when the drainer takes it, so a namespace holds at most its
 * capacity queued plus the slices being written. Events are held {@linkplain PackedEvent packed},
 * and the events of a partition share its key, charged once. Thread-safe.
 */
final class NamespaceQueue {

  /**
   * How far a paced queue makes up for a drainer that looked late (a pause, a slow store): the
   * rate's credit it may take at once, so a second's rate does not depend on when ticks fell.
   */
  static final long PACE_SLACK_NANOS = 200_000_000L;

  /**
   * One queued event, {@linkplain PackedEvent packed}, and what it costs; {@code attempts} counts
   * failed writes of it.
   */
  record Queued(byte[] event, PartitionKey partition, long bytes, long queuedNanos, int attempts) {

    /** The event, unpacked: new objects at each call. */
    Event unpacked() {
      return PackedEvent.unpack(event);
    }

    /** The same event after one more failed write. */
    Queued failedOnce() {
      return new Queued(event, partition, bytes, queuedNanos, attempts + 1);
    }

    private Queued in(PartitionKey shared, long extraBytes) {
      return new Queued(event, shared, bytes + extraBytes, queuedNanos, attempts);
    }
  }

  /**
   * The events queued for one partition, which share its key; the key and the partition's own
   * objects are charged to its first event.
   */
  private record Partition(PartitionKey key, ArrayDeque<Queued> events) {}

  /** Queued events by partition, in the order the oldest event of each came. */
  private final LinkedHashMap<PartitionKey, Partition> partitions = new LinkedHashMap<>();

  /** What a partition costs on the heap beyond its events, charged when it is made. */
  private final ToLongFunction<PartitionKey> partitionBytes;

  /** Events of slices that failed and are to be written again: first, before any partition. */
  private final ArrayDeque<Queued> retries = new ArrayDeque<>();

  /** How many slices may be written at once. */
  final DrainWindow window = new DrainWindow();

  /**
   * The namespace as its latest writer saw it; the drainer prefers the server's current view of it.
   */
  volatile NamespaceEntry entry;

  private long bytes;
  private int events;
  private int slicesInFlight;

  /** Before this time (nanos) nothing is taken: a slice of which nothing was written waits. */
  private long pausedUntilNanos;

  private boolean paused;

  /**
   * Before this time (nanos) no retry is taken, but other partitions are: a slice partly written
   * (some replicas down, the others up) backs off its failed events only.
   */
  private long retriesWaitUntilNanos;

  private boolean retriesWait;

  /** A paced queue's next slice is not taken before this time (nanos). */
  private long paceNextNanos;

  private boolean paced;

  /** Whether the drainer found the queue empty since it last took a slice: no credit then. */
  private boolean emptied = true;

  /** A queue whose partitions cost nothing beyond their events. */
  NamespaceQueue() {
    this(key -> 0);
  }

  /** A queue that charges {@code partitionBytes} to the first event of each partition it makes. */
  NamespaceQueue(ToLongFunction<PartitionKey> partitionBytes) {
    this.partitionBytes = partitionBytes;
  }

  /**
   * Queues {@code batch} whole if it fits within {@code capacity}, else nothing. It costs its
   * events' bytes and a partition for each partition it names that is not queued yet.
   *
   * @return what the batch was charged; -1 if it did not fit and was refused
   */
  synchronized long offer(List<Queued> batch, long capacity) {
    long charge = 0;
    Map<PartitionKey, Long> made = new HashMap<>();
    for (Queued q : batch) {
      charge += q.bytes();
      if (!partitions.containsKey(q.partition()) && !made.containsKey(q.partition())) {
        long partition = partitionBytes.applyAsLong(q.partition());
        made.put(q.partition(), partition);
        charge += partition;
      }
    }
    if (bytes + charge > capacity) {
      return -1;
    }
    for (Queued q : batch) {
      Partition partition = partitions.get(q.partition());
      if (partition == null) {
        // most partitions hold a few events: a queue of 16 slots each would hold more heap than
        // its events
        partition = new Partition(q.partition(), new ArrayDeque<>(1));
        partitions.put(q.partition(), partition);
        q = q.in(partition.key(), made.get(q.partition()));
      } else {
        q = q.in(partition.key(), 0);
      }
      partition.events().addLast(q);
    }
    bytes += charge;
    events += batch.size();
    return charge;
  }

  /**
   * The next slice to write, of about {@code sliceBytes}, or an empty list when none is due: fewer
   * than {@code maxSlices} are being written, and the oldest queued event has waited {@code
   * coalesceNanos} or {@code dueBytes} are queued. The caller must {@link #drained} every non-empty
   * slice once written.
   */
  synchronized List<Queued> takeSlice(
      long nowNanos, long coalesceNanos, long dueBytes, long sliceBytes, int maxSlices) {
    return takeSlice(nowNanos, coalesceNanos, dueBytes, sliceBytes, maxSlices, 0);
  }

  /**
   * As {@link #takeSlice(long, long, long, long, int)}, paced at {@code drainRate} events per
   * second (0: unpaced). A paced queue takes slices of at most a tenth of a second of its rate,
   * each once the previous ones' events have had their time at that rate; up to {@link
   * #PACE_SLACK_NANOS} of a late drainer is made up, so the rate holds over each second whatever
   * the drainer's ticks.
   */
  synchronized List<Queued> takeSlice(
      long nowNanos,
      long coalesceNanos,
      long dueBytes,
      long sliceBytes,
      int maxSlices,
      long drainRate) {
    if (events == 0) {
      emptied = true;
      return List.of();
    }
    if (slicesInFlight >= maxSlices) {
      return List.of();
    }
    if (drainRate > 0 && paced && nowNanos - paceNextNanos < 0) {
      return List.of();
    }
    if (paused && nowNanos - pausedUntilNanos < 0) {
      return List.of();
    }
    paused = false;
    if (nowNanos - oldestNanos() < coalesceNanos && bytes < dueBytes) {
      return List.of();
    }
    if (retriesWait && nowNanos - retriesWaitUntilNanos >= 0) {
      retriesWait = false;
    }
    List<Queued> slice = new ArrayList<>();
    long sliceTaken = 0;
    long maxEvents = drainRate > 0 ? Math.max(1, drainRate / 10) : Long.MAX_VALUE;
    while (!retriesWait
        && !retries.isEmpty()
        && sliceTaken < sliceBytes
        && slice.size() < maxEvents) {
      sliceTaken += take(retries.pollFirst(), slice);
    }
    Iterator<Partition> next = partitions.values().iterator();
    while (next.hasNext() && sliceTaken < sliceBytes && slice.size() < maxEvents) {
      ArrayDeque<Queued> partition = next.next().events();
      // a partition goes whole; one larger than a slice is split, its rest first in the next
      while (!partition.isEmpty() && sliceTaken < sliceBytes && slice.size() < maxEvents) {
        sliceTaken += take(partition.pollFirst(), slice);
      }
      if (partition.isEmpty()) {
        next.remove();
      }
    }
    if (slice.isEmpty()) {
      return List.of(); // only retries queued, still waiting
    }
    if (drainRate > 0) {
      long from;
      if (!paced || emptied) {
        from = nowNanos; // a new burst: its rate starts now, with no credit from the idle spell
      } else {
        from =
            paceNextNanos - (nowNanos - PACE_SLACK_NANOS) > 0
                ? paceNextNanos
                : nowNanos - PACE_SLACK_NANOS;
      }
      paceNextNanos = from + slice.size() * (1_000_000_000L / drainRate);
      paced = true;
    } else {
      paced = false;
    }
    emptied = false;
    slicesInFlight++;
    return slice;
  }

  private long take(Queued q, List<Queued> slice) {
    slice.add(q);
    bytes -= q.bytes();
    events--;
    return q.bytes();
  }

  /**
   * When the oldest queued event came. Partitions are in the order of their first events, and a
   * partition loses events from its head only when a slice splits it, which leaves it first. So the
   * oldest partitioned event heads the first partition or, after a split, the second. Retries hold
   * the oldest partitions of failed slices, and their head is counted too.
   */
  private long oldestNanos() {
    long oldest = Long.MAX_VALUE;
    if (!retries.isEmpty()) {
      oldest = retries.peekFirst().queuedNanos();
    }
    Iterator<Partition> heads = partitions.values().iterator();
    for (int i = 0; i < 2 && heads.hasNext(); i++) {
      oldest = Math.min(oldest, heads.next().events().peekFirst().queuedNanos());
    }
    return oldest;
  }

  /**
   * Ends the write of a slice; {@code retry} is queued again before everything else, in its order,
   * whatever the capacity (its bytes were counted when it was offered), and is not taken before
   * {@code pauseUntilNanos}. When nothing of the slice was written ({@code whole}), nothing at all
   * is taken before then: the store is failing, and what is taken sooner would fail the same way.
   * Otherwise the other partitions go on: their replicas answer.
   */
  synchronized void drained(List<Queued> retry, long pauseUntilNanos, boolean whole) {
    if (!retry.isEmpty() && whole && (!paused || pauseUntilNanos - pausedUntilNanos > 0)) {
      pausedUntilNanos = pauseUntilNanos;
      paused = true;
    }
    if (!retry.isEmpty() && (!retriesWait || pauseUntilNanos - retriesWaitUntilNanos > 0)) {
      retriesWaitUntilNanos = pauseUntilNanos;
      retriesWait = true;
    }
    drained(retry);
  }

  /**
   * Ends the write of a slice; {@code retry} is queued again before everything else, in its order,
   * whatever the capacity (its bytes were counted when it was offered).
   */
  synchronized void drained(List<Queued> retry) {
    for (int i = retry.size() - 1; i >= 0; i--) {
      Queued q = retry.get(i);
      retries.addFirst(q);
      bytes += q.bytes();
      events++;
    }
    slicesInFlight--;
  }

  synchronized int events() {
    return events;
  }

  synchronized long bytes() {
    return bytes;
  }

  /** Slices being written. */
  synchronized int slicesInFlight() {
    return slicesInFlight;
  }

  /** Whether nothing is queued and no slice is being written. */
  synchronized boolean idle() {
    return events == 0 && slicesInFlight == 0;
  }

  /** Seconds the oldest queued event has waited; 0 when none. */
  synchronized double oldestAgeSeconds(long nowNanos) {
    return events == 0 ? 0 : (nowNanos - oldestNanos()) / 1e9;
  }

  /** Removes and returns every queued event (shutdown, once nothing more will be written). */
  synchronized List<Queued> clear() {
    List<Queued> left = new ArrayList<>(retries);
    partitions.values().forEach(partition -> left.addAll(partition.events()));
    retries.clear();
    partitions.clear();
    bytes = 0;
    events = 0;
    return left;
  }
}
