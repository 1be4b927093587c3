package io.varve.server.config;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * When a server may switch a slice table's compaction ({@code timeseries.compaction}): at most one
 * switch per {@code switchInterval}, and only inside the daily window {@code [start, end)} in UTC
 * when one is set (a window may span midnight: 22:00-04:00).
 */
public record CompactionSchedule(
    Duration switchInterval, Optional<LocalTime> start, Optional<LocalTime> end) {

  /** Any time of day, one switch every five minutes. */
  public static final CompactionSchedule DEFAULT =
      new CompactionSchedule(Duration.ofMinutes(5), Optional.empty(), Optional.empty());

  /** {@code HH:MM-HH:MM} as a schedule with {@code switchInterval}; empty text: any time of day. */
  public static CompactionSchedule of(Duration switchInterval, String window) {
    if (window.isEmpty()) {
      return new CompactionSchedule(switchInterval, Optional.empty(), Optional.empty());
    }
    String[] bounds = window.split("-", 2);
    return new CompactionSchedule(
        switchInterval,
        Optional.of(LocalTime.parse(bounds[0])),
        Optional.of(LocalTime.parse(bounds[1])));
  }

  /** Whether a switch may start at {@code now}, the last one having started at {@code last}. */
  public boolean allows(Instant now, Optional<Instant> last) {
    if (last.isPresent() && now.isBefore(last.get().plus(switchInterval))) {
      return false;
    }
    if (start.isEmpty()) {
      return true;
    }
    LocalTime time = LocalTime.ofInstant(now, ZoneOffset.UTC);
    LocalTime from = start.get();
    LocalTime to = end.get();
    return from.isBefore(to)
        ? !time.isBefore(from) && time.isBefore(to)
        : !time.isBefore(from) || time.isBefore(to); // across midnight
  }
}
