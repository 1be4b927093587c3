package io.varve.core.index;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Index slice math: events go to one index per {@code secondsPerSlice} of event time, named {@code
 * <dataset>.<namespace>.<slice start, epoch seconds>}. Slices are aligned to the epoch and
 * start-inclusive / end-exclusive. Neither a dataset nor a namespace can contain '.', so a name
 * belongs to exactly one namespace.
 */
public final class IndexSlices {

  private IndexSlices() {}

  /** The name prefix shared by every index of the namespace (ends with '.'). */
  public static String prefix(IndexSpec spec) {
    return spec.dataset() + "." + spec.namespace() + ".";
  }

  /** Start (epoch seconds) of the slice holding {@code eventTimeMillis}. */
  public static long sliceStart(IndexSpec spec, long eventTimeMillis) {
    return Math.floorDiv(Math.floorDiv(eventTimeMillis, 1000), spec.secondsPerSlice())
        * spec.secondsPerSlice();
  }

  /** The index holding events at {@code eventTimeMillis}. */
  public static String indexFor(IndexSpec spec, long eventTimeMillis) {
    return prefix(spec) + sliceStart(spec, eventTimeMillis);
  }

  /** The indices that may hold events in [fromMillis, toMillis), oldest first. */
  public static List<String> covering(IndexSpec spec, long fromMillis, long toMillis) {
    List<String> names = new ArrayList<>();
    if (toMillis <= fromMillis) {
      return names;
    }
    for (long start = sliceStart(spec, fromMillis);
        start * 1000 < toMillis;
        start += spec.secondsPerSlice()) {
      names.add(prefix(spec) + start);
    }
    return names;
  }

  /** The slice start (epoch seconds) of an index of this namespace, or empty for another name. */
  public static OptionalLong startOf(IndexSpec spec, String index) {
    String prefix = prefix(spec);
    if (!index.startsWith(prefix)) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(index.substring(prefix.length())));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * Whether the slice starting at {@code startSeconds} is closed by the index retention at {@code
   * now}: it ended more than close_after (or, without it, delete_after) ago.
   */
  public static boolean closed(IndexSpec spec, long startSeconds, Instant now) {
    return spec.retention()
        .closeAfter()
        .or(spec.retention()::deleteAfter)
        .map(age -> endedBefore(spec, startSeconds, now, age))
        .orElse(false);
  }

  /**
   * Whether the slice starting at {@code startSeconds} has ended more than {@code age} before
   * {@code now}.
   */
  public static boolean endedBefore(IndexSpec spec, long startSeconds, Instant now, Duration age) {
    return Instant.ofEpochSecond(startSeconds + spec.secondsPerSlice()).plus(age).isBefore(now);
  }
}
