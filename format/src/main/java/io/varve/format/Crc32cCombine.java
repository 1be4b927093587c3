package io.varve.format;

/**
 * The CRC32C of two byte strings put end to end, from the CRC32C of each and the second's length,
 * without their bytes: how a commit of a value staged in parts checks the whole value's checksum
 * from the checksums recorded for its parts, without reading them back. The method is zlib's {@code
 * crc32_combine} (appending {@code len2} zero bytes to the first CRC is a linear map over GF(2),
 * applied by repeated squaring of the one-zero-bit operator) with the Castagnoli polynomial of
 * {@link java.util.zip.CRC32C}; values are those {@code CRC32C.getValue()} gives, as ints.
 */
public final class Crc32cCombine {

  /** The Castagnoli polynomial, reflected, as {@link java.util.zip.CRC32C} uses it. */
  private static final int POLYNOMIAL = 0x82F63B78;

  private Crc32cCombine() {}

  /**
   * The CRC32C of {@code A + B}, where {@code crc1} is that of A, {@code crc2} that of B and {@code
   * len2} the bytes of B.
   */
  public static int combine(int crc1, int crc2, long len2) {
    if (len2 <= 0) {
      return crc1;
    }
    int[] even = new int[32];
    int[] odd = new int[32];
    // the operator of one zero bit
    odd[0] = POLYNOMIAL;
    int row = 1;
    for (int n = 1; n < 32; n++) {
      odd[n] = row;
      row <<= 1;
    }
    square(even, odd); // two zero bits
    square(odd, even); // four zero bits
    int crc = crc1;
    long length = len2;
    // one zero byte is eight zero bits: the first squaring below gives it
    do {
      square(even, odd);
      if ((length & 1) != 0) {
        crc = times(even, crc);
      }
      length >>>= 1;
      if (length == 0) {
        break;
      }
      square(odd, even);
      if ((length & 1) != 0) {
        crc = times(odd, crc);
      }
      length >>>= 1;
    } while (length != 0);
    return crc ^ crc2;
  }

  private static int times(int[] matrix, int vector) {
    int sum = 0;
    int v = vector;
    for (int i = 0; v != 0; i++, v >>>= 1) {
      if ((v & 1) != 0) {
        sum ^= matrix[i];
      }
    }
    return sum;
  }

  private static void square(int[] square, int[] matrix) {
    for (int n = 0; n < 32; n++) {
      square[n] = times(matrix, matrix[n]);
    }
  }
}
