package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CompactionScheduleTest {

  @ParameterizedTest(name = "[{index}] window {0} at {1}: {2}")
  @CsvSource({
    "'', 12:00, true",
    "01:00-05:00, 00:59, false",
    "01:00-05:00, 01:00, true",
    "01:00-05:00, 04:59, true",
    "01:00-05:00, 05:00, false",
    "22:00-04:00, 23:30, true",
    "22:00-04:00, 03:59, true",
    "22:00-04:00, 04:00, false",
    "22:00-04:00, 12:00, false"
  })
  void a_switch_starts_only_inside_the_daily_window_in_utc(
      String window, String time, boolean allowed) {
    CompactionSchedule schedule = CompactionSchedule.of(Duration.ofMinutes(5), window);
    Instant at = Instant.parse("2026-11-29T" + time + ":00Z");

    assertThat(schedule.allows(at, Optional.empty())).isEqualTo(allowed);
  }

  @ParameterizedTest(name = "[{index}] {0} after the last switch: {1}")
  @CsvSource({"PT0S, false", "PT4M59S, false", "PT5M, true", "PT2H, true"})
  void a_server_switches_at_most_once_per_interval(Duration since, boolean allowed) {
    CompactionSchedule schedule = CompactionSchedule.of(Duration.ofMinutes(5), "");
    Instant last = Instant.parse("2026-11-29T10:00:00Z");

    assertThat(schedule.allows(last.plus(since), Optional.of(last))).isEqualTo(allowed);
  }
}
