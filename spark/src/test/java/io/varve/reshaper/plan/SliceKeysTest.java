package io.varve.reshaper.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The buckets a timeSlice job computes are those of core's functions of the storage format. */
class SliceKeysTest {
  private static final Instant START = Instant.parse("2026-11-29T00:00:00Z");
  private static final Instant END = Instant.parse("2026-11-30T00:00:00Z");

  /** Values in the layout of a slice table: series, time bucket, event bucket, time, id. */
  private static final SliceKeys KEYS = new SliceKeys(START, END, 600, 8, 0, 3, 4, 1, 2);

  @Test
  void the_buckets_are_those_of_core_time_slice_and_event_buckets() {
    TimeSlice core = new TimeSlice("ns", START, END, "t", 600, 8, SliceStatus.CLOSED);
    Random random = new Random(42);
    long width = END.toEpochMilli() - START.toEpochMilli();
    for (int i = 0; i < 10_000; i++) {
      String series = "series-" + random.nextInt(50);
      long time = START.toEpochMilli() + (long) (random.nextDouble() * width);
      String id = "event-" + random.nextLong();
      byte[][] values = row(series, time, id);

      assertThat(KEYS.fill(values)).isNull();

      assertThat(decode(TypeCodecs.TIMESTAMP, values[1]).toEpochMilli())
          .isEqualTo(core.timeBucketOf(time));
      assertThat(decode(TypeCodecs.INT, values[2])).isEqualTo(EventBuckets.of(series, time, id, 8));
    }
  }

  @Test
  void the_first_and_last_millisecond_of_the_slice_are_in_its_first_and_last_bucket() {
    byte[][] first = row("s", START.toEpochMilli(), "a");
    byte[][] last = row("s", END.toEpochMilli() - 1, "a");
    assertThat(KEYS.fill(first)).isNull();
    assertThat(KEYS.fill(last)).isNull();
    assertThat(decode(TypeCodecs.TIMESTAMP, first[1])).isEqualTo(START);
    assertThat(decode(TypeCodecs.TIMESTAMP, last[1])).isEqualTo(END.minusSeconds(600));
  }

  @Test
  void a_row_outside_the_slice_is_named_with_its_event_time_and_still_gets_its_buckets() {
    byte[][] after = row("s", END.toEpochMilli(), "a");
    assertThat(KEYS.fill(after))
        .isEqualTo(
            "event_time 2026-11-30T00:00:00Z is outside the slice [2026-11-29T00:00:00Z,"
                + " 2026-11-30T00:00:00Z) of timeSlice");
    assertThat(decode(TypeCodecs.TIMESTAMP, after[1])).isEqualTo(END);
    byte[][] before = row("s", START.toEpochMilli() - 1, "a");
    assertThat(KEYS.fill(before)).startsWith("event_time 2026-11-28T23:59:59.999Z is outside");
    assertThat(decode(TypeCodecs.TIMESTAMP, before[1])).isEqualTo(START.minusSeconds(600));
  }

  @Test
  void one_event_bucket_puts_every_event_in_bucket_zero() {
    SliceKeys one = new SliceKeys(START, END, 3600, 1, 0, 3, 4, 1, 2);
    byte[][] values = row("dense", START.toEpochMilli() + 123_456, "x");
    assertThat(one.fill(values)).isNull();
    assertThat(decode(TypeCodecs.INT, values[2])).isZero();
    assertThat(decode(TypeCodecs.TIMESTAMP, values[1])).isEqualTo(START);
  }

  @Test
  void travels_to_executors() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(KEYS);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(KEYS);
    }
  }

  private static byte[][] row(String series, long timeMillis, String id) {
    return new byte[][] {
      encode(TypeCodecs.TEXT, series),
      null,
      null,
      encode(TypeCodecs.TIMESTAMP, Instant.ofEpochMilli(timeMillis)),
      encode(TypeCodecs.TEXT, id)
    };
  }

  private static <T> byte[] encode(TypeCodec<T> codec, T value) {
    ByteBuffer buffer = codec.encode(value, ProtocolVersion.DEFAULT);
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  private static <T> T decode(TypeCodec<T> codec, byte[] value) {
    return codec.decode(ByteBuffer.wrap(value), ProtocolVersion.DEFAULT);
  }
}
