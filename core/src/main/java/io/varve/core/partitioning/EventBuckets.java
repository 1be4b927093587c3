package io.varve.core.partitioning;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Places an event in one of the event buckets of its time bucket. The bucket is a pure function of
 * the event's identity (time series id, event time, event id), so a retried or hedged write of the
 * same event always lands on the same partition and overwrites itself.
 *
 * <p>The function is CRC-32C of the length-prefixed UTF-8 id, the event time in milliseconds
 * (big-endian) and the length-prefixed UTF-8 event id, modulo the bucket count. It is part of the
 * storage format: changing it would split existing events across buckets.
 */
public final class EventBuckets {

  private EventBuckets() {}

  /** The event bucket, in {@code 0..eventBuckets-1}. */
  public static int of(
      String timeSeriesId, long eventTimeMillis, String eventId, int eventBuckets) {
    if (eventBuckets == 1) {
      return 0;
    }
    byte[] series = timeSeriesId.getBytes(StandardCharsets.UTF_8);
    byte[] id = eventId.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buffer = ByteBuffer.allocate(4 + series.length + 8 + 4 + id.length);
    buffer.putInt(series.length).put(series).putLong(eventTimeMillis).putInt(id.length).put(id);
    CRC32C crc = new CRC32C();
    crc.update(buffer.array());
    return (int) (crc.getValue() % eventBuckets);
  }
}
