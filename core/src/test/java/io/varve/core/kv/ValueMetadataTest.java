package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class ValueMetadataTest {

  @Property
  void every_metadata_round_trips(@ForAll("metadata") ValueMetadata metadata) {
    assertThat(ValueMetadata.decode(ByteBuffer.wrap(metadata.encode()))).isEqualTo(metadata);
  }

  @Property
  void every_truncation_fails_with_a_clear_error_or_decodes_a_prefix(
      @ForAll("metadata") ValueMetadata metadata) {
    byte[] encoded = metadata.encode();
    for (int length = 0; length < encoded.length; length++) {
      ByteBuffer prefix = ByteBuffer.wrap(Arrays.copyOf(encoded, length));
      try {
        ValueMetadata.decode(prefix); // a cut between fields is a shorter valid encoding
      } catch (IllegalArgumentException e) {
        assertThat(e.getMessage()).startsWith("value_metadata");
      }
    }
  }

  @Property(tries = 2000)
  void garbage_fails_with_a_clear_error_never_another_exception(
      @ForAll @Size(max = 64) byte[] bytes) {
    try {
      ValueMetadata.decode(ByteBuffer.wrap(bytes));
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith("value_metadata");
    }
  }

  @Test
  void unknown_tags_of_a_later_version_are_skipped() {
    byte[] known = ValueMetadata.inline("tok", 42, ValueMetadata.Compression.ZSTD).encode();
    byte[] later = Arrays.copyOf(known, known.length + 5);
    System.arraycopy(new byte[] {9, 3, 1, 2, 3}, 0, later, known.length, 5);
    assertThat(ValueMetadata.decode(ByteBuffer.wrap(later)))
        .isEqualTo(ValueMetadata.inline("tok", 42, ValueMetadata.Compression.ZSTD));
  }

  @Test
  void an_unknown_version_a_missing_cell_and_out_of_range_fields_are_refused() {
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {2, 1, 0})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown version");
    assertThatThrownBy(() -> ValueMetadata.decode(null)).hasMessage("value_metadata missing");
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {1, 3, 1, 7})))
        .hasMessageContaining("compression out of range");
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {1, 1, 100, 'a'})))
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {1, 2, (byte) 0x80})))
        .hasMessageContaining("truncated");
  }

  @Test
  void an_expired_marker_and_chunk_counts_survive() {
    assertThat(ValueMetadata.decode(ByteBuffer.wrap(ValueMetadata.expired("t").encode())).expired())
        .isTrue();
    ValueMetadata chunked =
        new ValueMetadata("t", 5L << 40, ValueMetadata.Compression.NONE, false, 1 << 20);
    assertThat(ValueMetadata.decode(ByteBuffer.wrap(chunked.encode()))).isEqualTo(chunked);
  }

  @Test
  void chunk_details_round_trip_and_rows_written_before_them_still_read() {
    ValueMetadata chunked =
        ValueMetadata.chunked(
            "t", 20L << 20, ValueMetadata.Compression.ZSTD, 7, 1 << 20, 6_500_000, 0xCAFEBABE);
    ValueMetadata decoded = ValueMetadata.decode(ByteBuffer.wrap(chunked.encode()));
    assertThat(decoded).isEqualTo(chunked);
    assertThat(decoded.isChunked()).isTrue();
    assertThat(decoded.checksum()).isEqualTo(0xCAFEBABE);
    // version 1 with tags 1 to 3 only, as inline rows were written before chunking
    byte[] old = {1, 1, 1, 'x', 2, 1, 5, 3, 1, 0};
    ValueMetadata inline = ValueMetadata.decode(ByteBuffer.wrap(old));
    assertThat(inline.isChunked()).isFalse();
    assertThat(inline.valueSize()).isEqualTo(5);
    assertThat(inline.chunkSize()).isZero();
    assertThat(inline.storedSize()).isZero();
  }

  @Test
  void the_encoding_is_the_storage_format_rows_already_hold() {
    HexFormat hex = HexFormat.of();
    // version 1; tag 1, length 3, "tok"; tag 2, length 2, varint 300; tag 3, length 1, zstd (1)
    assertThat(ValueMetadata.inline("tok", 300, ValueMetadata.Compression.ZSTD).encode())
        .isEqualTo(hex.parseHex("01" + "0103746f6b" + "0202ac02" + "030101"));
    // an empty token, size 0, no compression; then tag 4 expired; tags 5 to 8 chunks 2, chunk
    // size 1, stored size 0, checksum 2^32 - 1
    assertThat(new ValueMetadata("", 0, ValueMetadata.Compression.NONE, true, 2, 1, 0, -1).encode())
        .isEqualTo(
            hex.parseHex(
                "01"
                    + "0100"
                    + "020100"
                    + "030100"
                    + "040101"
                    + "050102"
                    + "060101"
                    + "070100"
                    + "0805ffffffff0f"));
  }

  @Test
  void the_largest_metadata_fits_its_documented_bound() {
    ValueMetadata largest =
        new ValueMetadata(
            "\uD83D\uDE00".repeat(KvLimits.MAX_TOKEN_CHARS / 2),
            Long.MAX_VALUE,
            ValueMetadata.Compression.ZSTD,
            true,
            Integer.MAX_VALUE,
            Integer.MAX_VALUE,
            Long.MAX_VALUE,
            -1);
    assertThat(largest.encode().length).isLessThanOrEqualTo(KvLimits.MAX_METADATA_BYTES);
  }

  @Provide
  Arbitrary<ValueMetadata> metadata() {
    return Combinators.combine(
            Arbitraries.strings().ofMaxLength(KvLimits.MAX_TOKEN_CHARS),
            Arbitraries.longs().greaterOrEqual(0),
            Arbitraries.of(ValueMetadata.Compression.class),
            Arbitraries.of(true, false),
            Arbitraries.integers().greaterOrEqual(0))
        .as(ValueMetadata::new);
  }
}
