package io.varve.core.write;

import io.varve.core.error.VarveException.Kind;
import io.varve.core.event.Event;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places each event of a batch in its time slice, time bucket and event bucket, and rejects those
 * the namespace cannot take now: older than the accept limit, further ahead than the future limit,
 * in a closed slice, or in a slice not created yet (slices are created ahead of time by the control
 * plane, never on the write path).
 */
public final class WritePlanner {

  private WritePlanner() {}

  public static WritePlan plan(
      NamespaceSettings settings,
      List<TimeSlice> slices,
      List<Event> events,
      Instant now,
      Duration futureLimit) {
    return plan(settings.acceptLimit(), slices, events, now, futureLimit);
  }

  /**
   * As {@link #plan(NamespaceSettings, List, List, Instant, Duration)}, for a writer that knows of
   * the namespace only its accept limit and slices (a Spark job loading a namespace).
   */
  public static WritePlan plan(
      Duration acceptLimit,
      List<TimeSlice> slices,
      List<Event> events,
      Instant now,
      Duration futureLimit) {
    Placer placer = new Placer(acceptLimit, slices, now, futureLimit);
    Map<PartitionKey, List<PlacedEvent>> partitions = new LinkedHashMap<>();
    List<Rejection> rejections = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      PartitionKey key = placer.place(i, event, rejections);
      if (key != null) {
        partitions.computeIfAbsent(key, k -> new ArrayList<>()).add(new PlacedEvent(i, event, key));
      }
    }
    return new WritePlan(partitions, rejections);
  }

  /**
   * Places events one at a time, for a writer that takes them one by one (a Spark task loading a
   * namespace): the rule of {@link #plan}, which uses it. A refusal's message is built only for an
   * event refused. Not thread-safe; cheap to create.
   */
  public static final class Placer {
    private final Duration acceptLimit;
    private final Duration futureLimit;
    private final List<TimeSlice> slices;
    private final long oldest;
    private final long newest;
    private TimeSlice last;

    public Placer(Duration acceptLimit, List<TimeSlice> slices, Instant now, Duration futureLimit) {
      this.acceptLimit = acceptLimit;
      this.futureLimit = futureLimit;
      this.slices = slices;
      this.oldest = now.minus(acceptLimit).toEpochMilli();
      this.newest = now.plus(futureLimit).toEpochMilli();
    }

    /**
     * The partition {@code event} goes to; null, after adding its rejection to {@code rejections},
     * when the namespace cannot take it now.
     *
     * @param index the event's index in its request, for the rejection
     */
    public PartitionKey place(int index, Event event, List<Rejection> rejections) {
      long t = event.eventTimeMillis();
      if (t < oldest) {
        rejections.add(
            new Rejection(
                index,
                event,
                Kind.FAILED_PRECONDITION,
                describe(index, event)
                    + " is older than the namespace's acceptLimit ("
                    + acceptLimit.toSeconds()
                    + "s): writes are accepted from "
                    + Instant.ofEpochMilli(oldest)));
        return null;
      }
      if (t > newest) {
        rejections.add(
            new Rejection(
                index,
                event,
                Kind.FAILED_PRECONDITION,
                describe(index, event)
                    + " is more than "
                    + futureLimit.toSeconds()
                    + "s in the future: writes are accepted up to "
                    + Instant.ofEpochMilli(newest)));
        return null;
      }
      TimeSlice slice = last != null && last.contains(t) ? last : find(slices, t);
      if (slice == null) {
        rejections.add(
            new Rejection(
                index,
                event,
                Kind.UNAVAILABLE,
                describe(index, event)
                    + " falls in no time slice yet; slices are being created, retry shortly"));
        return null;
      }
      last = slice;
      if (slice.status() != SliceStatus.ACTIVE) {
        rejections.add(
            new Rejection(
                index,
                event,
                Kind.FAILED_PRECONDITION,
                describe(index, event)
                    + " falls in time slice "
                    + slice.table()
                    + " which is "
                    + slice.status()));
        return null;
      }
      int bucket = EventBuckets.of(event.timeSeriesId(), t, event.eventId(), slice.eventBuckets());
      return new PartitionKey(slice.table(), event.timeSeriesId(), slice.timeBucketOf(t), bucket);
    }
  }

  private static TimeSlice find(List<TimeSlice> slices, long t) {
    for (TimeSlice slice : slices) {
      if (slice.contains(t)) {
        return slice;
      }
    }
    return null;
  }

  static String describe(int index, Event event) {
    return "events["
        + index
        + "] (timeSeriesId="
        + event.timeSeriesId()
        + ", eventId="
        + event.eventId()
        + ", eventTime="
        + Instant.ofEpochMilli(event.eventTimeMillis())
        + ")";
  }
}
