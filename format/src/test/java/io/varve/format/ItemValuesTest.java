package io.varve.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.kv.KvChunking;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How one KeyValue value is stored in its row or in chunks, and put together again. */
class ItemValuesTest {

  private static final ValueCodec CODEC = new ValueCodec(ValueCodec.DEFAULT_THRESHOLD);

  private static byte[] random(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }

  @Test
  void a_value_up_to_the_threshold_stays_in_its_row_behind_its_metadata() {
    byte[] value = random(KvChunking.DEFAULT.threshold());

    ItemValues.Stored stored =
        ItemValues.store(value, false, value.length, "n1", CODEC, KvChunking.DEFAULT);

    assertThat(stored.isChunked()).isFalse();
    ValueMetadata m = ValueMetadata.decode(stored.cell());
    assertThat(m.token()).isEqualTo("n1");
    assertThat(m.valueSize()).isEqualTo(value.length);
    assertThat(ItemValues.inline(stored.cell(), m, false)).isEqualTo(value);
  }

  @Test
  void a_compressible_value_is_stored_compressed_and_read_back_as_written() {
    byte[] value = new byte[64 * 1024];

    ItemValues.Stored stored =
        ItemValues.store(value, false, value.length, "n", CODEC, KvChunking.DEFAULT);

    assertThat(stored.metadataFields().compression()).isEqualTo(ValueMetadata.Compression.ZSTD);
    assertThat(stored.stored().remaining()).isLessThan(value.length / 8);
    assertThat(ItemValues.inline(stored.cell(), stored.metadataFields(), false)).isEqualTo(value);
    assertThat(ItemValues.inline(stored.cell(), stored.metadataFields(), true))
        .as("raw: as stored")
        .hasSize(stored.stored().remaining());
  }

  @Test
  void a_value_over_the_threshold_goes_to_chunks_that_put_together_in_any_order_give_it_back() {
    byte[] value = random(KvChunking.DEFAULT.threshold() * 3 + 17);

    ItemValues.Stored stored =
        ItemValues.store(value, false, value.length, "n", CODEC, KvChunking.DEFAULT);

    assertThat(stored.isChunked()).isTrue();
    ValueMetadata m = ValueMetadata.decode(stored.cell());
    assertThat(m.chunks()).isEqualTo(4);
    assertThat(ValueMetadata.payload(stored.cell()).remaining()).as("no value in the row").isZero();
    ItemValues.Assembly assembly = new ItemValues.Assembly(m);
    for (int i = m.chunks() - 1; i >= 0; i--) {
      assembly.put(i, ItemValues.chunk(stored.stored(), i, m.chunkSize()));
    }
    assertThat(ItemValues.value(ByteBuffer.wrap(assembly.stored()), m, false)).isEqualTo(value);
  }

  @Test
  void a_missing_chunk_a_short_one_or_the_bytes_of_another_version_give_no_value() {
    byte[] value = random(KvChunking.DEFAULT.threshold() * 2 + 1);
    ItemValues.Stored stored =
        ItemValues.store(value, false, value.length, "n", CODEC, KvChunking.DEFAULT);
    ValueMetadata m = stored.metadataFields();

    ItemValues.Assembly missing = new ItemValues.Assembly(m);
    missing.put(0, ItemValues.chunk(stored.stored(), 0, m.chunkSize()));
    missing.put(1, null);
    missing.put(2, ItemValues.chunk(stored.stored(), 2, m.chunkSize()));
    assertThat(missing.stored()).isNull();

    ItemValues.Assembly shortChunk = new ItemValues.Assembly(m);
    for (int i = 0; i < m.chunks(); i++) {
      ByteBuffer chunk = ItemValues.chunk(stored.stored(), i, m.chunkSize());
      shortChunk.put(i, i == 2 ? chunk.limit(chunk.limit() - 1) : chunk);
    }
    assertThat(shortChunk.stored()).isNull();

    byte[] other = random(value.length + 1);
    System.arraycopy(other, 0, other, 0, value.length);
    ItemValues.Stored second =
        ItemValues.store(
            java.util.Arrays.copyOf(other, value.length),
            false,
            value.length,
            "n",
            CODEC,
            KvChunking.DEFAULT);
    ItemValues.Assembly mixed = new ItemValues.Assembly(m);
    for (int i = 0; i < m.chunks(); i++) {
      mixed.put(i, ItemValues.chunk((i == 1 ? second : stored).stored(), i, m.chunkSize()));
    }
    assertThat(mixed.stored()).as("a chunk of another version fails the CRC32C").isNull();
  }

  @Test
  void metadata_over_the_largest_value_or_whose_sizes_do_not_add_up_is_refused_before_memory() {
    ValueMetadata huge =
        ValueMetadata.chunked("n", 1, ValueMetadata.Compression.NONE, 300, 1 << 20, 300L << 20, 0);
    ValueMetadata inconsistent =
        ValueMetadata.chunked("n", 1, ValueMetadata.Compression.NONE, 1, 1 << 20, 3 << 20, 0);

    assertThatThrownBy(() -> new ItemValues.Assembly(huge))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> new ItemValues.Assembly(inconsistent))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
