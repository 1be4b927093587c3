package io.varve.bench.result;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** HdrHistogram's compressed encoding in Base64, the form histograms take in result files. */
public final class HistogramCodec {
  private HistogramCodec() {}

  /** Encodes a histogram; the result decodes to an equal histogram. */
  public static String encode(Histogram histogram) {
    ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
    int length = histogram.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
  }

  /** Decodes what {@link #encode} produced; a damaged value is an error naming the field. */
  public static Histogram decode(String field, String encoded) {
    try {
      Histogram h =
          Histogram.decodeFromCompressedByteBuffer(
              ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
      return h;
    } catch (IllegalArgumentException | DataFormatException | java.nio.BufferUnderflowException e) {
      throw new ResultFileException(field + " is not a valid encoded histogram: " + e.getMessage());
    }
  }
}
