package io.varve.server.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.core.error.InvalidFieldException;
import org.junit.jupiter.api.Test;

class RequestTimesTest {

  static Timestamp ts(long seconds, int nanos) {
    return Timestamp.newBuilder().setSeconds(seconds).setNanos(nanos).build();
  }

  @Test
  void digits_below_the_millisecond_are_truncated_towards_the_past() {
    assertThat(RequestTimes.millis(ts(10, 123_456_789), "t")).isEqualTo(10_123);
    assertThat(RequestTimes.millis(ts(10, 999_999), "t")).isEqualTo(10_000);
    assertThat(RequestTimes.millis(ts(10, 5_000_000), "t")).isEqualTo(10_005);
  }

  @Test
  void an_interval_keeps_every_time_that_lay_in_it_once_kept_to_the_millisecond() {
    // [10.000123, 10.000124): an event written at 10.000123 is stored at 10.000
    long[] range =
        RequestTimes.interval(
            true,
            TimeInterval.newBuilder().setStart(ts(10, 123_000)).setEnd(ts(10, 124_000)).build());
    assertThat(range).containsExactly(10_000, 10_001);
    long stored = RequestTimes.millis(ts(10, 123_000), "t");
    assertThat(stored).isBetween(range[0], range[1] - 1);
    // whole milliseconds stay as they were
    assertThat(
            RequestTimes.interval(
                true, TimeInterval.newBuilder().setStart(ts(10, 0)).setEnd(ts(11, 0)).build()))
        .containsExactly(10_000, 11_000);
  }

  @Test
  void an_interval_must_still_end_after_it_starts() {
    assertThatThrownBy(
            () ->
                RequestTimes.interval(
                    true,
                    TimeInterval.newBuilder()
                        .setStart(ts(10, 500_000))
                        .setEnd(ts(10, 500_000))
                        .build()))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("timeInterval.end");
    assertThatThrownBy(
            () ->
                RequestTimes.interval(
                    true,
                    TimeInterval.newBuilder()
                        .setStart(ts(10, 900_000))
                        .setEnd(ts(10, 100_000))
                        .build()))
        .isInstanceOf(InvalidFieldException.class);
  }

  @Test
  void nanos_out_of_range_are_still_refused_naming_the_field() {
    assertThatThrownBy(() -> RequestTimes.millis(ts(10, -1), "events[0].eventTime"))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("events[0].eventTime");
    assertThatThrownBy(() -> RequestTimes.millis(ts(10, 1_000_000_000), "t"))
        .isInstanceOf(InvalidFieldException.class);
  }
}
