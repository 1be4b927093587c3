package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.VarveException;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvCommit;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class StagedPartsTest {

  static final byte[] VALUE = new byte[10_000];

  static {
    new Random(3).nextBytes(VALUE);
  }

  static int crc(int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(VALUE, from, to - from);
    return (int) crc.getValue();
  }

  /** The records of {@code VALUE} staged in parts of {@code size}. */
  static List<CqlChunkLog.Part> parts(int size) {
    List<CqlChunkLog.Part> parts = new ArrayList<>();
    for (int from = 0, i = 0; from < VALUE.length; from += size, i++) {
      int to = Math.min(VALUE.length, from + size);
      parts.add(new CqlChunkLog.Part(i, to - from, crc(from, to)));
    }
    return parts;
  }

  static KvCommit commit(int count, List<Integer> partCrcs) {
    return new KvCommit(
        "items[0]",
        new byte[] {'k'},
        count,
        VALUE.length,
        crc(0, VALUE.length),
        partCrcs,
        ValueMetadata.Compression.NONE);
  }

  static String refusal(KvCommit commit, List<CqlChunkLog.Part> parts) {
    VarveException[] thrown = new VarveException[1];
    assertThatThrownBy(() -> StagedParts.check(commit, parts))
        .isInstanceOfSatisfying(VarveException.class, e -> thrown[0] = e);
    assertThat(thrown[0].kind()).isEqualTo(VarveException.Kind.FAILED_PRECONDITION);
    assertThat(thrown[0].getMessage()).startsWith("items[0].chunked: commit of key aw== (base64)");
    return thrown[0].getMessage();
  }

  @Test
  void parts_that_make_up_the_value_give_their_part_size() {
    assertThat(StagedParts.check(commit(4, List.of()), parts(3000))).isEqualTo(3000);
    assertThat(StagedParts.check(commit(1, List.of()), parts(10_000))).isEqualTo(10_000);
  }

  @Test
  void a_missing_part_a_part_beyond_the_count_and_a_corrupt_part_are_named() {
    List<CqlChunkLog.Part> missing = new ArrayList<>(parts(3000));
    missing.remove(2);
    assertThat(refusal(commit(4, List.of()), missing)).contains("part 2 is missing");
    assertThat(refusal(commit(4, List.of()), parts(3000).subList(0, 3)))
        .contains("part 3 is missing");
    assertThat(refusal(commit(3, List.of()), parts(3000)))
        .contains("part 3 is staged under this token but outside chunk_count 3");

    List<CqlChunkLog.Part> corrupt = new ArrayList<>(parts(3000));
    corrupt.set(1, new CqlChunkLog.Part(1, 3000, 42));
    assertThat(refusal(commit(4, List.of()), corrupt)).contains("the staged parts have CRC32C");
    List<Integer> partCrcs = parts(3000).stream().map(CqlChunkLog.Part::crc32c).toList();
    assertThat(refusal(commit(4, partCrcs), corrupt))
        .contains("part 1 is corrupt")
        .contains("0x0000002a");
  }

  @Test
  void parts_of_uneven_sizes_or_another_total_are_refused() {
    List<CqlChunkLog.Part> uneven = new ArrayList<>(parts(3000));
    uneven.set(1, new CqlChunkLog.Part(1, 2999, crc(3000, 5999)));
    assertThat(refusal(commit(4, List.of()), uneven))
        .contains("part 1 holds 2999 bytes, part 0 3000");
    List<CqlChunkLog.Part> shortLast = new ArrayList<>(parts(3000).subList(0, 3));
    shortLast.add(new CqlChunkLog.Part(3, 999, crc(9000, 9999)));
    assertThat(refusal(commit(4, List.of()), shortLast))
        .contains("the parts hold 9999 bytes, chunked.value_size says 10000");
  }

  @Test
  void a_compressed_value_is_sized_by_the_frame_header_of_its_first_part() {
    ByteBuffer encoded = new io.varve.format.ValueCodec(1).encode(new byte[500_000]).value();
    byte[] frame = new byte[encoded.remaining()];
    encoded.get(frame);
    KvCommit commit =
        new KvCommit(
            "items[0]",
            new byte[] {'k'},
            1,
            frame.length,
            0,
            List.of(),
            ValueMetadata.Compression.ZSTD);
    assertThat(
            StagedParts.declaredSize(
                commit,
                ByteBuffer.wrap(frame, 0, Math.min(frame.length, 100)).slice(),
                KvChunking.DEFAULT))
        .isEqualTo(500_000);
    assertThatThrownBy(
            () -> StagedParts.declaredSize(commit, ByteBuffer.wrap(VALUE), KvChunking.DEFAULT))
        .hasMessageContaining("does not start a zstd frame");
  }
}
