package io.varve.core.partitioning;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Decides which time slices must exist so that every event of {@code [from, to)} has a home, given
 * the slices that exist. New slices extend the existing run at either end without overlap, on the
 * run's grid, with the namespace's current partition settings; existing slices never change. The
 * first slice of a namespace starts at {@code from} rounded down to a multiple of its width.
 *
 * <p>The work is bounded by the window, never by the age of the run: when the run ended long before
 * {@code from} (no server ran for longer than the accept limit), the time between is skipped, as no
 * event can be written there; likewise for a run starting long after {@code to}. A plan of more
 * than {@link #MAX_PLANNED} slices is refused whatever the settings, so that a configuration that
 * escaped validation can never make the planner exhaust memory.
 */
public final class SlicePlanner {

  /** Most slices one plan may hold (ten times the documented bound of the write window). */
  public static final long MAX_PLANNED = 10_000;

  private SlicePlanner() {}

  /** The slices to create, in time order. {@code existing} may be in any order. */
  public static List<TimeSlice> missing(
      String namespace,
      TimePartition partition,
      List<TimeSlice> existing,
      Instant from,
      Instant to) {
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
    if (last < fromMillis) {
      last += Math.floorDiv(fromMillis - last, width) * width;
    }
    if (first > toMillis) {
      first -= Math.floorDiv(first - toMillis, width) * width;
    }
    long planned =
        (first > fromMillis ? ceilDiv(first - fromMillis, width) : 0)
            + (last < toMillis ? ceilDiv(toMillis - last, width) : 0);
    if (planned > MAX_PLANNED) {
      throw new IllegalArgumentException(
          "namespace "
              + namespace
              + ": covering ["
              + from
              + ", "
              + to
              + ") with slices of "
              + partition.secondsPerTimeSlice()
              + "s takes "
              + planned
              + " slices, more than "
              + MAX_PLANNED);
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

  private static long ceilDiv(long a, long b) {
    return Math.floorDiv(a + b - 1, b);
  }

  private static TimeSlice slice(String namespace, TimePartition p, long start, long end) {
    Instant s = Instant.ofEpochMilli(start);
    return new TimeSlice(
        namespace,
        s,
        Instant.ofEpochMilli(end),
        SliceTableName.of(namespace, s),
        p.secondsPerTimeBucket(),
        p.eventBuckets(),
        SliceStatus.ACTIVE);
  }
}
