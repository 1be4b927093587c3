package io.varve.core.index;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an event into its index document. An item is indexed when its key (as UTF-8 text) is in the
 * field mapping and its value parses as the field's type; a value that does not parse is left out
 * and reported in {@link #unparsable}. When an event carries the same key twice, the first parsable
 * value is indexed.
 *
 * @param document the document to index
 * @param unparsable keys of the mapped items whose values did not parse
 */
public record IndexedEvent(IndexDocument document, List<String> unparsable) {

  public static IndexedEvent of(IndexSpec spec, Event event) {
    Map<String, Object> fields = new HashMap<>();
    List<String> unparsable = new java.util.ArrayList<>();
    for (EventItem item : event.items()) {
      String key = new String(item.key(), StandardCharsets.UTF_8);
      FieldType type = spec.fields().get(key);
      if (type == null
          || fields.containsKey(key)
          || !java.util.Arrays.equals(key.getBytes(StandardCharsets.UTF_8), item.key())) {
        continue;
      }
      Object value = type.parse(item.value());
      if (value == null) {
        unparsable.add(key);
      } else {
        fields.put(key, value);
      }
    }
    List<EventItem> items = spec.mode() == DocumentMode.FULL_EVENT ? event.items() : List.of();
    IndexDocument document =
        new IndexDocument(
            IndexSlices.indexFor(spec, event.eventTimeMillis()),
            documentId(event.timeSeriesId(), event.eventTimeMillis(), event.eventId()),
            event.timeSeriesId(),
            event.eventTimeMillis(),
            event.eventId(),
            fields,
            items);
    return new IndexedEvent(document, List.copyOf(unparsable));
  }

  /** The document id of an event: url-safe base64 of SHA-256 over its identity, 43 characters. */
  public static String documentId(String timeSeriesId, long eventTimeMillis, String eventId) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] series = timeSeriesId.getBytes(StandardCharsets.UTF_8);
      digest.update(ByteBuffer.allocate(12).putInt(series.length).putLong(eventTimeMillis).array());
      digest.update(series);
      digest.update(eventId.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
