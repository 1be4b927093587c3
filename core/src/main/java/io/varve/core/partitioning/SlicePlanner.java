package io.varve.core.partitioning;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Decides which time slices must exist so that every event of {@code [from, to)} has a home,
 * given the slices that exist. New slices extend the existing run at either end without gap or
 * overlap, with the namespace's current partition settings; existing slices never change.
 * The first slice of a namespace starts at {@code from} rounded down to a multiple of its width.
 */
public final class SlicePlanner {

  private SlicePlanner() {}

  /** The slices to create, in time order. {@code existing} may be in any order. */
  public static List<TimeSlice> missing(
      String namespace, TimePartition partition, List<TimeSlice> existing, Instant from, Instant to) {
    long width = partition.millisPerTimeSlice();
    List<TimeSlice> sorted = new ArrayList<>(existing);
    sorted.sort(Comparator.comparing(TimeSlice::start));
    List<TimeSlice> created = new ArrayList<>();
    long fromMillis = from.toEpochMilli();
    long toMillis = to.toEpochMilli();
    long first;
    long last;
    if (sorted.isEmpty()) {
      first = Math.floorDiv(fromMillis, width) * width;
      last = first;
    } else {
      first = sorted.get(0).start().toEpochMilli();
      last = sorted.get(sorted.size() - 1).end().toEpochMilli();
    }
    while (first > fromMillis) {
      long start = first - width;
      created.add(0, slice(namespace, partition, start, first));
      first = start;
    }
    while (last < toMillis) {
      long end = last + width;
      created.add(slice(namespace, partition, last, end));
      last = end;
    }
    return created;
  }

  private static TimeSlice slice(String namespace, TimePartition p, long start, long end) {
    Instant s = Instant.ofEpochMilli(start);
    return new TimeSlice(namespace, s, Instant.ofEpochMilli(end), SliceTableName.of(namespace, s),
        p.secondsPerTimeBucket(), p.eventBuckets(), SliceStatus.ACTIVE);
  }
}
