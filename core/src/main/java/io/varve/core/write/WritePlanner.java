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
    long oldest = now.minus(acceptLimit).toEpochMilli();
    long newest = now.plus(futureLimit).toEpochMilli();
    Map<PartitionKey, List<PlacedEvent>> partitions = new LinkedHashMap<>();
    List<Rejection> rejections = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      long t = event.eventTimeMillis();
      String what = describe(i, event);
      if (t < oldest) {
        rejections.add(
            new Rejection(
                i,
                event,
                Kind.FAILED_PRECONDITION,
                what
                    + " is older than the namespace's acceptLimit ("
                    + acceptLimit.toSeconds()
                    + "s): writes are accepted from "
                    + Instant.ofEpochMilli(oldest)));
        continue;
      }
      if (t > newest) {
        rejections.add(
            new Rejection(
                i,
                event,
                Kind.FAILED_PRECONDITION,
                what
                    + " is more than "
                    + futureLimit.toSeconds()
                    + "s in the future: writes are accepted up to "
                    + Instant.ofEpochMilli(newest)));
        continue;
      }
      TimeSlice slice = find(slices, t);
      if (slice == null) {
        rejections.add(
            new Rejection(
                i,
                event,
                Kind.UNAVAILABLE,
                what + " falls in no time slice yet; slices are being created, retry shortly"));
        continue;
      }
      if (slice.status() != SliceStatus.ACTIVE) {
        rejections.add(
            new Rejection(
                i,
                event,
                Kind.FAILED_PRECONDITION,
                what + " falls in time slice " + slice.table() + " which is " + slice.status()));
        continue;
      }
      int bucket = EventBuckets.of(event.timeSeriesId(), t, event.eventId(), slice.eventBuckets());
      PartitionKey key =
          new PartitionKey(slice.table(), event.timeSeriesId(), slice.timeBucketOf(t), bucket);
      partitions.computeIfAbsent(key, k -> new ArrayList<>()).add(new PlacedEvent(i, event, key));
    }
    return new WritePlan(partitions, rejections);
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
