package io.varve.core.partitioning;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.zip.CRC32C;

/**
 * Names the table of a time slice: {@code <namespace>_<yyyyMMddHHmmss of the slice start, UTC>}.
 * Cassandra limits table names to 48 characters, so a namespace longer than 32 characters is cut to
 * 24 and followed by an 8-hex-digit checksum of the full name, keeping names unique.
 */
public final class SliceTableName {

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  private SliceTableName() {}

  /**
   * The table of a slice's events under other partition settings than it was created with: {@code
   * <namespace cut to 16>_<checksum of the namespace>_<stamp>_<tag>}, at most 47 characters, the
   * tag (6 base-36 digits) a checksum of the settings, so that a re-partitioning resumed after a
   * crash finds the table it began.
   */
  public static String repartitioned(
      String namespace, Instant sliceStart, int eventBuckets, long secondsPerTimeBucket) {
    CRC32C crc = new CRC32C();
    crc.update(namespace.getBytes(StandardCharsets.UTF_8));
    CRC32C settings = new CRC32C();
    settings.update((eventBuckets + "/" + secondsPerTimeBucket).getBytes(StandardCharsets.UTF_8));
    String tag = Long.toString(settings.getValue() % 2_176_782_336L, 36); // 36^6
    return namespace.substring(0, Math.min(16, namespace.length()))
        + "_"
        + String.format("%08x", crc.getValue())
        + "_"
        + STAMP.format(sliceStart)
        + "_"
        + "0".repeat(6 - tag.length())
        + tag;
  }

  public static String of(String namespace, Instant sliceStart) {
    String stamp = STAMP.format(sliceStart);
    if (namespace.length() <= 32) {
      return namespace + "_" + stamp;
    }
    CRC32C crc = new CRC32C();
    crc.update(namespace.getBytes(StandardCharsets.UTF_8));
    return namespace.substring(0, 24) + "_" + String.format("%08x", crc.getValue()) + "_" + stamp;
  }
}
