package io.varve.reshaper.datasource.timeseries;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;
import org.junit.jupiter.api.Test;

class EventFiltersTest {

  private static Timestamp at(long millis, int extraMicros) {
    Timestamp t = new Timestamp(millis);
    t.setNanos((int) (millis % 1000) * 1_000_000 + extraMicros * 1000);
    return t;
  }

  @Test
  void time_bounds_admit_exactly_the_stored_milliseconds_a_filter_with_microseconds_admits() {
    Filter[] filters = {
      new GreaterThan("event_time", at(1_000, 500)), // > 1000.5 ms: from 1001
      new LessThanOrEqual("event_time", at(2_000, 0)) // <= 2000 ms: to 2001
    };
    EventFilters f = EventFilters.of(0, 10_000, filters);
    assertThat(f.fromMillis()).isEqualTo(1_001);
    assertThat(f.toMillis()).isEqualTo(2_001);
    assertThat(f.pushed()).hasSize(2);

    EventFilters g =
        EventFilters.of(
            0,
            10_000,
            new Filter[] {
              new GreaterThanOrEqual("event_time", at(1_000, 1)), // >= 1000.001: from 1001
              new LessThan("event_time", at(2_000, 1)) // < 2000.001: to 2001
            });
    assertThat(g.fromMillis()).isEqualTo(1_001);
    assertThat(g.toMillis()).isEqualTo(2_001);

    EventFilters exact =
        EventFilters.of(
            0, 10_000, new Filter[] {new EqualTo("event_time", Instant.ofEpochMilli(5_000))});
    assertThat(exact.fromMillis()).isEqualTo(5_000);
    assertThat(exact.toMillis()).isEqualTo(5_001);
    EventFilters between =
        EventFilters.of(0, 10_000, new Filter[] {new EqualTo("event_time", at(5_000, 3))});
    assertThat(between.empty()).as("no stored millisecond equals 5000.003 ms").isTrue();
  }

  @Test
  void the_options_interval_is_only_narrowed() {
    EventFilters f =
        EventFilters.of(1_000, 2_000, new Filter[] {new GreaterThan("event_time", at(500, 0))});
    assertThat(f.fromMillis()).isEqualTo(1_000);
    assertThat(f.toMillis()).isEqualTo(2_000);
  }

  @Test
  void ids_are_intersected_and_other_filters_are_left_to_spark() {
    EventFilters f =
        EventFilters.of(
            0,
            10,
            new Filter[] {
              new In("time_series_id", new Object[] {"a", "b", "c"}),
              new And(new EqualTo("time_series_id", "b"), new GreaterThan("event_time", at(1, 0))),
              new Or(new EqualTo("time_series_id", "x"), new EqualTo("event_id", "y")),
              new EqualTo("event_id", "e"),
              new In("time_series_id", new Object[] {"a", 3})
            });
    assertThat(f.series()).contains(Set.of("b"));
    assertThat(f.fromMillis()).isEqualTo(2);
    assertThat(f.pushed()).hasSize(2);

    EventFilters none =
        EventFilters.of(
            0,
            10,
            new Filter[] {new EqualTo("time_series_id", "a"), new EqualTo("time_series_id", "b")});
    assertThat(none.empty()).as("no id is both a and b").isTrue();
  }
}
