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
