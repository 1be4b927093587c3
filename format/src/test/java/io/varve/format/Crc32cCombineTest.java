package io.varve.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cCombineTest {

  private static int crc(byte[] bytes, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  @Test
  void the_checksums_of_parts_combine_into_the_checksum_of_the_whole() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      byte[] bytes = new byte[random.nextInt(5000) + 1];
      random.nextBytes(bytes);
      int cut = random.nextInt(bytes.length + 1);
      assertThat(
              Crc32cCombine.combine(
                  crc(bytes, 0, cut), crc(bytes, cut, bytes.length), bytes.length - cut))
          .as("%d bytes cut at %d", bytes.length, cut)
          .isEqualTo(crc(bytes, 0, bytes.length));
    }
  }

  @Test
  void parts_of_a_mebibyte_combine_in_order_and_not_out_of_order() {
    Random random = new Random(11);
    byte[] bytes = new byte[3 * 1024 * 1024 + 17];
    random.nextBytes(bytes);
    int part = 1024 * 1024;
    int whole = 0;
    for (int from = 0; from < bytes.length; from += part) {
      int to = Math.min(bytes.length, from + part);
      whole =
          from == 0
              ? crc(bytes, 0, to)
              : Crc32cCombine.combine(whole, crc(bytes, from, to), to - from);
    }
    assertThat(whole).isEqualTo(crc(bytes, 0, bytes.length));
    int swapped = Crc32cCombine.combine(crc(bytes, part, 2 * part), crc(bytes, 0, part), part);
    assertThat(swapped).isNotEqualTo(crc(bytes, 0, 2 * part));
  }

  @Test
  void an_empty_second_part_leaves_the_first_checksum() {
    assertThat(Crc32cCombine.combine(0x1234_5678, 0, 0)).isEqualTo(0x1234_5678);
  }
}
