package io.varve.core.read;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs a read plan: scans the partitions of the planned time buckets in parallel, at most {@code
 * window} at a time and in plan order (newest bucket first), merges the partitions of each bucket
 * newest first, and stops as soon as {@code want} events are collected. Buckets do not overlap in
 * time, so a bucket's events all precede those of the next one and only the partitions within a
 * bucket need merging.
 *
 * <p>Under a {@link ScanBudget}, the read also stops when its deadline passes (or when a scan as
 * long as the slowest so far would end past it) once at least one time bucket is merged: it returns
 * the events of the merged buckets, which are every event of them, and a {@link Result#resume}
 * cursor below the last merged bucket; the scans in flight are cancelled. A read with no bucket
 * merged yet goes on, so that each page makes progress.
 *
 * <p>When a partition read stops at the read's byte limit ({@link PartitionRead#cut}), the read
 * ends with the events merged down to the newest of the cut partitions' last events, at least one,
 * and {@link Result#full}: the next page starts after its last event.
 */
public final class ScatterGather {

  /**
   * The collected events, how many partitions the merge needed, when the budget cut the read short,
   * where the next page starts ({@code null} otherwise), and whether the read stopped at its byte
   * limit ({@link ReadBytes}): then the next page starts after the last event.
   */
  public record Result(List<Event> events, int partitionsUsed, Cursor resume, boolean full) {

    public Result(List<Event> events, int partitionsUsed) {
      this(events, partitionsUsed, null, false);
    }

    /** Whether the budget cut the read short of the events it wanted. */
    public boolean partial() {
      return resume != null;
    }
  }

  private final PartitionReader reader;
  private final List<BucketScan> buckets;
  private final ScanBudget budget;
  private final List<PartitionScan> scans = new ArrayList<>();
  private final List<Integer> firstScanOfBucket = new ArrayList<>();
  private final List<PartitionRead> partitionResults = new ArrayList<>();
  private final int[] pendingPerBucket;
  private final Cursor cursor;
  private final List<EventItem> filters;
  private final int want;
  private final int window;
  private final List<Event> collected = new ArrayList<>();
  private final CompletableFuture<Result> done = new CompletableFuture<>();
  private int nextScan;
  private int inFlight;
  private boolean cut;
  private int headBucket;

  private ScatterGather(
      PartitionReader reader,
      List<BucketScan> buckets,
      Cursor cursor,
      List<EventItem> filters,
      int want,
      int window,
      ScanBudget budget) {
    this.reader = reader;
    this.buckets = buckets;
    this.budget = budget;
    this.cursor = cursor;
    this.filters = filters;
    this.want = want;
    this.window = window;
    this.pendingPerBucket = new int[buckets.size()];
    for (int b = 0; b < buckets.size(); b++) {
      BucketScan bucket = buckets.get(b);
      firstScanOfBucket.add(scans.size());
      pendingPerBucket[b] = bucket.eventBuckets();
      for (int e = 0; e < bucket.eventBuckets(); e++) {
        scans.add(new PartitionScan(bucket, e));
        partitionResults.add(null);
      }
    }
  }

  /** Collects up to {@code want} events of the planned buckets, newest first. */
  public static CompletionStage<Result> run(
      PartitionReader reader,
      List<BucketScan> buckets,
      Cursor cursor,
      List<EventItem> filters,
      int want,
      int window) {
    return run(reader, buckets, cursor, filters, want, window, ScanBudget.NONE);
  }

  /**
   * As {@link #run(PartitionReader, List, Cursor, List, int, int)}, within {@code budget}, which
   * should also be the one {@code reader} tracks its fetches with.
   */
  public static CompletionStage<Result> run(
      PartitionReader reader,
      List<BucketScan> buckets,
      Cursor cursor,
      List<EventItem> filters,
      int want,
      int window,
      ScanBudget budget) {
    ScatterGather gather =
        new ScatterGather(reader, buckets, cursor, filters, want, Math.max(1, window), budget);
    synchronized (gather) {
      gather.advance();
    }
    budget.whenExpired(gather::expired);
    return gather.done;
  }

  private synchronized void expired() {
    if (!done.isDone() && headBucket > 0) {
      cutShort();
    }
  }

  /** Returns the merged buckets' events with a cursor below them; cancels the scans in flight. */
  private void cutShort() {
    Cursor resume = Cursor.olderThan(buckets.get(headBucket - 1).fromMillis());
    // stopped before the answer, so that whoever reads it sees no work running; the cancelled
    // scans' failures arrive meanwhile and are ignored
    cut = true;
    budget.stop();
    done.complete(new Result(collected, firstScanIndex(headBucket), resume, false));
  }

  private void advance() {
    while (!done.isDone()
        && headBucket < pendingPerBucket.length
        && pendingPerBucket[headBucket] == 0) {
      mergeHeadBucket();
    }
    if (done.isDone()) {
      return;
    }
    if (headBucket == pendingPerBucket.length || collected.size() >= want) {
      done.complete(new Result(collected, firstScanIndex(headBucket)));
      return;
    }
    if (headBucket > 0 && !budget.allowsAnother()) {
      // no scan may start; those in flight may still end in time, else the timer cuts the read
      if (inFlight == 0) {
        cutShort();
      }
      return;
    }
    while (!done.isDone() && inFlight < window && nextScan < scans.size()) {
      int index = nextScan++;
      inFlight++;
      int need = want - collected.size();
      CompletionStage<PartitionRead> read;
      try {
        read = reader.read(scans.get(index), cursor, filters, need);
      } catch (RuntimeException e) {
        // thrown inside another read's callback it would be lost and the result never completed
        read = CompletableFuture.failedFuture(e);
      }
      read.whenComplete((events, error) -> onScan(index, events, error));
    }
  }

  private synchronized void onScan(int index, PartitionRead events, Throwable error) {
    inFlight--;
    if (done.isDone() || cut) {
      return;
    }
    if (error != null) {
      done.completeExceptionally(error);
      return;
    }
    partitionResults.set(index, events);
    pendingPerBucket[bucketOf(index)]--;
    advance();
  }

  private void mergeHeadBucket() {
    int from = firstScanIndex(headBucket);
    int to = firstScanIndex(headBucket + 1);
    List<Event> merged = new ArrayList<>();
    // a partition cut at the byte limit may hold more events after its last one: the merge is
    // only complete down to the newest of the cut partitions' last events
    Event boundary = null;
    for (int i = from; i < to; i++) {
      PartitionRead read = partitionResults.get(i);
      merged.addAll(read.events());
      if (read.cut()) {
        Event last = read.events().get(read.events().size() - 1);
        if (boundary == null || Event.newestFirst(last, boundary) < 0) {
          boundary = last;
        }
      }
      partitionResults.set(i, null);
    }
    merged.sort(Event::newestFirst);
    for (Event event : merged) {
      if (collected.size() >= want
          || (boundary != null && Event.newestFirst(event, boundary) > 0)) {
        break;
      }
      collected.add(event);
    }
    headBucket++;
    if (collected.size() >= want) {
      done.complete(new Result(collected, to));
    } else if (boundary != null) {
      // the page is full: the scans of later buckets in flight are not needed. Cut first: their
      // cancellation reaches onScan at once, on this thread, and must not fail the read
      cut = true;
      budget.stop();
      done.complete(new Result(collected, to, null, true));
    }
  }

  private int firstScanIndex(int bucket) {
    return bucket < firstScanOfBucket.size() ? firstScanOfBucket.get(bucket) : scans.size();
  }

  private int bucketOf(int scanIndex) {
    int lo = 0;
    int hi = firstScanOfBucket.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (firstScanOfBucket.get(mid) <= scanIndex) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }
}
