package io.varve.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ValueCodecTest {

  private final ValueCodec codec = new ValueCodec(1024);

  @Test
  void compressible_values_are_marked_and_plain_ones_get_an_empty_marker_not_a_null() {
    ValueCodec.Stored zeros = codec.encode(new byte[10_000]);
    assertThat(zeros.metadata()).isEqualTo(ValueCodec.ZSTD);
    assertThat(zeros.value().remaining()).isLessThan(10_000);
    assertThat(ValueCodec.decode(zeros.value(), zeros.metadata(), 5, 5))
        .isEqualTo(new byte[10_000]);

    ValueCodec.Stored small = codec.encode("small".getBytes(StandardCharsets.UTF_8));
    assertThat(small.metadata()).isEqualTo(ValueCodec.NONE).isNotNull();
    assertThat(ValueCodec.decode(small.value(), small.metadata(), 5, 5))
        .asString()
        .isEqualTo("small");
  }

  @Test
  void a_large_value_is_judged_by_its_start_and_stored_plain_when_that_does_not_compress() {
    int size = 4 * ValueCodec.PROBE_BYTES;
    byte[] noise = new byte[size];
    new Random(7).nextBytes(noise);
    ValueCodec.Stored random = codec.encode(noise);
    assertThat(random.metadata()).isEqualTo(ValueCodec.NONE);
    assertThat(random.value()).isEqualTo(ByteBuffer.wrap(noise));

    byte[] text = new byte[size];
    for (int i = 0; i < size; i++) {
      text[i] = (byte) ('a' + i % 7);
    }
    ValueCodec.Stored compressible = codec.encode(text);
    assertThat(compressible.metadata()).isEqualTo(ValueCodec.ZSTD);
    assertThat(ValueCodec.decode(compressible.value(), compressible.metadata(), 5, 5))
        .isEqualTo(text);

    byte[] noisyStart = text.clone();
    System.arraycopy(noise, 0, noisyStart, 0, ValueCodec.PROBE_BYTES);
    assertThat(codec.encode(noisyStart).metadata())
        .as("the start decides: the compressible rest is stored plain too")
        .isEqualTo(ValueCodec.NONE);

    byte[] compressibleStart = new byte[16 * ValueCodec.PROBE_BYTES];
    new Random(8).nextBytes(compressibleStart);
    System.arraycopy(text, 0, compressibleStart, 0, ValueCodec.PROBE_BYTES);
    ValueCodec.Stored mostlyNoise = codec.encode(compressibleStart);
    assertThat(mostlyNoise.metadata())
        .as("a start that compresses is no promise: the whole value must still save an eighth")
        .isEqualTo(ValueCodec.NONE);
  }

  @Test
  void a_marker_as_old_as_a_plain_value_is_one_of_two_versions_of_a_batch_and_the_value_is_read() {
    // two versions of one row in one batch: Cassandra kept the marker of the compressed one (the
    // larger text) beside the value of the plain one (the larger bytes)
    ByteBuffer plain = ByteBuffer.wrap(new byte[] {'x'});
    assertThat(ValueCodec.decode(plain, ValueCodec.ZSTD, 1_000, 1_000)).containsExactly('x');
    ByteBuffer empty = ByteBuffer.allocate(0);
    assertThat(ValueCodec.decode(empty, ValueCodec.ZSTD, 1_000, 1_000)).isEmpty();
  }

  @Test
  void a_marker_older_than_its_value_is_stale_and_ignored() {
    ByteBuffer plain = ByteBuffer.wrap("small".getBytes(StandardCharsets.UTF_8));
    assertThat(ValueCodec.decode(plain, ValueCodec.ZSTD, 2_000, 1_000))
        .asString()
        .isEqualTo("small");
    assertThat(ValueCodec.decode(plain, null, 2_000, 0)).asString().isEqualTo("small");
  }

  @Test
  void a_current_marker_on_bytes_that_are_no_zstd_frame_is_reported_as_corrupt() {
    ByteBuffer plain = ByteBuffer.wrap("small".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> ValueCodec.decode(plain, ValueCodec.ZSTD, 1_000, 2_000))
        .isInstanceOf(ValueCodec.CorruptValueException.class)
        .hasMessageContaining("not a zstd frame");
    ByteBuffer truncated = codec.encode(new byte[10_000]).value();
    truncated.limit(truncated.limit() - 3);
    assertThatThrownBy(() -> ValueCodec.decode(truncated, ValueCodec.ZSTD, 1_000, 1_000))
        .isInstanceOf(ValueCodec.CorruptValueException.class);
    assertThatThrownBy(() -> ValueCodec.decode(plain, "compression=lz4", 1_000, 1_000))
        .isInstanceOf(ValueCodec.CorruptValueException.class)
        .hasMessageContaining("unknown value_metadata");
  }
}
