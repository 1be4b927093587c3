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
  void every_truncation_fails_with_a_clear_error(@ForAll("metadata") ValueMetadata metadata) {
    byte[] encoded = metadata.encode();
    for (int length = 0; length < encoded.length; length++) {
      ByteBuffer prefix = ByteBuffer.wrap(Arrays.copyOf(encoded, length));
      // the end tag: a cut between fields is no shorter valid encoding
      assertThatThrownBy(() -> ValueMetadata.decode(prefix))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("value_metadata");
    }
  }

  @Property
  void a_value_cell_holds_its_metadata_and_its_value(
      @ForAll("metadata") ValueMetadata metadata, @ForAll @Size(max = 64) byte[] value) {
    ByteBuffer cell = ValueMetadata.frame(metadata.encode(), ByteBuffer.wrap(value));
    assertThat(ValueMetadata.decode(cell)).isEqualTo(metadata);
    assertThat(ValueMetadata.payload(cell)).isEqualTo(ByteBuffer.wrap(value));
    assertThat(cell.remaining())
        .as("not consumed")
        .isEqualTo(metadata.encode().length + value.length);
  }

  /**
   * What keeps two writes of one item at the same timestamp whole: Cassandra keeps the larger bytes
   * (unsigned) of each cell, so the value cells of two writes must sort as their metadata cells do.
   */
  @Property(tries = 3000)
  void value_cells_sort_as_their_metadata_whatever_the_values(
      @ForAll("metadata") ValueMetadata first,
      @ForAll("metadata") ValueMetadata second,
      @ForAll @Size(max = 16) byte[] firstValue,
      @ForAll @Size(max = 16) byte[] secondValue) {
    byte[] a = first.encode();
    byte[] b = second.encode();
    int metadataOrder = Integer.signum(Arrays.compareUnsigned(a, b));
    int cellOrder =
        Integer.signum(
            Arrays.compareUnsigned(
                bytes(ValueMetadata.frame(a, ByteBuffer.wrap(firstValue))),
                bytes(ValueMetadata.frame(b, ByteBuffer.wrap(secondValue)))));
    if (metadataOrder != 0) {
      assertThat(cellOrder).isEqualTo(metadataOrder);
    }
  }

  @Test
  void same_token_writes_that_differ_only_in_later_fields_still_sort_as_their_metadata() {
    // an empty value and an item-level delete under one reused token: the delete's metadata is the
    // put's with tag 4 added; without the end tag the put's would be a prefix of it
    byte[] put = ValueMetadata.inline("t", 0, ValueMetadata.Compression.NONE).encode();
    byte[] expired = ValueMetadata.expired("t").encode();
    byte[] value = {(byte) 0xFF};
    assertThat(Integer.signum(Arrays.compareUnsigned(put, expired)))
        .isEqualTo(
            Integer.signum(
                Arrays.compareUnsigned(
                    bytes(ValueMetadata.frame(put, ByteBuffer.wrap(value))),
                    bytes(ValueMetadata.frame(expired, ByteBuffer.allocate(0))))));
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
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
    // inserted before the end tag
    byte[] later = Arrays.copyOf(known, known.length + 5);
    System.arraycopy(new byte[] {9, 3, 1, 2, 3, 0}, 0, later, known.length - 1, 6);
    assertThat(ValueMetadata.decode(ByteBuffer.wrap(later)))
        .isEqualTo(ValueMetadata.inline("tok", 42, ValueMetadata.Compression.ZSTD));
  }

  @Test
  void an_unknown_version_a_missing_cell_and_out_of_range_fields_are_refused() {
    // version 1, of development builds before the end tag (their value cells hold no metadata)
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {1, 1, 1, 'x', 0})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown version");
    assertThatThrownBy(() -> ValueMetadata.decode(null)).hasMessage("value_metadata missing");
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {2, 3, 1, 7, 0})))
        .hasMessageContaining("compression out of range");
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {2, 1, 100, 'a'})))
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> ValueMetadata.decode(ByteBuffer.wrap(new byte[] {2, 2, (byte) 0x80})))
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
  void chunk_details_round_trip() {
    ValueMetadata chunked =
        ValueMetadata.chunked(
            "t", 20L << 20, ValueMetadata.Compression.ZSTD, 7, 1 << 20, 6_500_000, 0xCAFEBABE);
    ValueMetadata decoded = ValueMetadata.decode(ByteBuffer.wrap(chunked.encode()));
    assertThat(decoded).isEqualTo(chunked);
    assertThat(decoded.isChunked()).isTrue();
    assertThat(decoded.checksum()).isEqualTo(0xCAFEBABE);
  }

  @Test
  void the_encoding_is_the_storage_format_rows_already_hold() {
    HexFormat hex = HexFormat.of();
    // version 2; tag 1, length 3, "tok"; tag 2, length 2, varint 300; tag 3, length 1, zstd (1);
    // end
    assertThat(ValueMetadata.inline("tok", 300, ValueMetadata.Compression.ZSTD).encode())
        .isEqualTo(hex.parseHex("02" + "0103746f6b" + "0202ac02" + "030101" + "00"));
    // an empty token, size 0, no compression; then tag 4 expired; tags 5 to 8 chunks 2, chunk
    // size 1, stored size 0, checksum 2^32 - 1
    assertThat(new ValueMetadata("", 0, ValueMetadata.Compression.NONE, true, 2, 1, 0, -1).encode())
        .isEqualTo(
            hex.parseHex(
                "02"
                    + "0100"
                    + "020100"
                    + "030100"
                    + "040101"
                    + "050102"
                    + "060101"
                    + "070100"
                    + "0805ffffffff0f"
                    + "00"));
  }

  @Test
  void the_largest_metadata_fits_its_documented_bound() {
    ValueMetadata largest =
        new ValueMetadata(
            // the longest nonce: its characters counted in code points, 4 UTF-8 bytes each
            "\uD83D\uDE00".repeat(KvLimits.MAX_TOKEN_CHARS),
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
