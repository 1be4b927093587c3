package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class TimePartitionTest {

  /** Ten years of 366 days, in seconds: 10 * 366 * 24 * 3600. */
  private static final long TEN_YEARS = 316_224_000L;

  @ParameterizedTest(name = "slice {0}s, bucket {1}s, {2} event buckets")
  @CsvSource({
    "86400, 3600, 4", // the documented default
    "129600, 3600, 4", // the Netflix example: 36 h slices of 1 h buckets
    "3600, 3600, 1", // the narrowest slice: one bucket per slice, one event bucket
    "3600, 60, 64", // the narrowest bucket; the most event buckets
    "600000, 60, 4", // 10,000 buckets per slice, the most allowed
    "316224000, 86400, 16", // the widest slice allowed
  })
  void accepts_slice_that_is_a_positive_multiple_of_the_bucket(
      long slice, long bucket, int eventBuckets) {
    TimePartition.validate("timePartition", slice, bucket, eventBuckets);
    TimePartition partition = new TimePartition(slice, bucket, eventBuckets);

    assertThat(partition.millisPerTimeSlice()).isEqualTo(slice * 1000);
    assertThat(partition.millisPerTimeBucket()).isEqualTo(bucket * 1000);
    assertThat(partition.eventBuckets()).isEqualTo(eventBuckets);
  }

  static Stream<Arguments> invalidPartitions() {
    return Stream.of(
        Arguments.of(
            0L,
            3600L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: 0 (expected: 3600.." + TEN_YEARS + " seconds)"),
        Arguments.of(
            -86400L,
            3600L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: -86400 (expected: 3600.."
                + TEN_YEARS
                + " seconds)"),
        Arguments.of(
            TEN_YEARS + 1,
            3600L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: "
                + (TEN_YEARS + 1)
                + " (expected: 3600.."
                + TEN_YEARS
                + " seconds)"),
        Arguments.of(
            86400L,
            0L,
            4,
            "timePartition.secondsPerTimeBucket",
            "timePartition.secondsPerTimeBucket: 0 (expected: 60..86400 seconds, at most the slice width)"),
        Arguments.of(
            86400L,
            -3600L,
            4,
            "timePartition.secondsPerTimeBucket",
            "timePartition.secondsPerTimeBucket: -3600 (expected: 60..86400 seconds, at most the slice width)"),
        Arguments.of(
            3600L,
            7200L,
            4,
            "timePartition.secondsPerTimeBucket",
            "timePartition.secondsPerTimeBucket: 7200 (expected: 60..3600 seconds, at most the slice width)"),
        Arguments.of(
            86400L,
            7000L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: 86400 (expected: a multiple of secondsPerTimeBucket (7000))"),
        Arguments.of(
            5400L,
            3600L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: 5400 (expected: a multiple of secondsPerTimeBucket (3600))"),
        Arguments.of(
            3599L,
            3599L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: 3599 (expected: 3600.." + TEN_YEARS + " seconds)"),
        Arguments.of(
            1L,
            1L,
            4,
            "timePartition.secondsPerTimeSlice",
            "timePartition.secondsPerTimeSlice: 1 (expected: 3600.." + TEN_YEARS + " seconds)"),
        Arguments.of(
            3600L,
            59L,
            4,
            "timePartition.secondsPerTimeBucket",
            "timePartition.secondsPerTimeBucket: 59 (expected: 60..3600 seconds, at most the slice width)"),
        Arguments.of(
            600060L,
            60L,
            4,
            "timePartition.secondsPerTimeBucket",
            "timePartition.secondsPerTimeBucket: 60 (expected: at least 61 seconds: a slice of 600060s would hold"
                + " 10001 time buckets, at most 10000)"),
        Arguments.of(
            86400L,
            3600L,
            0,
            "timePartition.eventBuckets",
            "timePartition.eventBuckets: 0 (expected: 1..64)"),
        Arguments.of(
            86400L,
            3600L,
            -1,
            "timePartition.eventBuckets",
            "timePartition.eventBuckets: -1 (expected: 1..64)"),
        Arguments.of(
            86400L,
            3600L,
            65,
            "timePartition.eventBuckets",
            "timePartition.eventBuckets: 65 (expected: 1..64)"));
  }

  @ParameterizedTest(name = "{4}")
  @MethodSource("invalidPartitions")
  void refuses_invalid_partition_naming_field_value_and_expectation(
      long slice, long bucket, int eventBuckets, String field, String message) {
    assertThatThrownBy(() -> TimePartition.validate("timePartition", slice, bucket, eventBuckets))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.kind()).isEqualTo(VarveException.Kind.INVALID_ARGUMENT);
            })
        .hasMessage(message);
  }

  @ParameterizedTest(name = "slice {0}s, bucket {1}s, {2} event buckets")
  @CsvSource({"0, 3600, 4", "86400, 7000, 4", "86400, 3600, 65", "316224001, 3600, 4"})
  void the_record_refuses_partitions_its_arithmetic_cannot_use(
      long slice, long bucket, int eventBuckets) {
    assertThatThrownBy(() -> new TimePartition(slice, bucket, eventBuckets))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void the_record_keeps_narrow_partitions_stored_under_older_bounds() {
    assertThat(new TimePartition(1, 1, 1).millisPerTimeSlice()).isEqualTo(1000);
  }

  @Test
  void validate_names_fields_under_the_given_path() {
    assertThatThrownBy(
            () ->
                TimePartition.validate(
                    "persistence_configuration[0].config.timePartition", 86400, 3600, 100))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e ->
                assertThat(e.field())
                    .isEqualTo("persistence_configuration[0].config.timePartition.eventBuckets"))
        .hasMessage(
            "persistence_configuration[0].config.timePartition.eventBuckets: 100 (expected: 1..64)");
  }
}
