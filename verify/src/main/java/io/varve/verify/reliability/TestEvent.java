package io.varve.verify.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * An event the suite writes: one item, key {@code v}, whose value it checks when reading back.
 * Event times have millisecond precision, as the API requires.
 */
public record TestEvent(String timeSeriesId, Instant eventTime, String eventId, byte[] value) {

  static final String ITEM_KEY =
      Base64.getEncoder().encodeToString("v".getBytes(StandardCharsets.US_ASCII));

  /** The JSON body of a WriteEventRecordsSync of these events (ids and series are plain ASCII). */
  public static String writeRequest(String namespace, List<TestEvent> events) {
    StringBuilder json =
        new StringBuilder(128 + events.size() * 160)
            .append("{\"namespace\":\"")
            .append(namespace)
            .append("\",\"events\":[");
    for (int i = 0; i < events.size(); i++) {
      TestEvent event = events.get(i);
      json.append(i == 0 ? "" : ",")
          .append("{\"timeSeriesId\":\"")
          .append(event.timeSeriesId)
          .append("\",\"eventTime\":\"")
          .append(event.eventTime)
          .append("\",\"eventId\":\"")
          .append(event.eventId)
          .append("\",\"eventItems\":[{\"eventItemKey\":\"")
          .append(ITEM_KEY)
          .append("\",\"eventItemValue\":\"")
          .append(Base64.getEncoder().encodeToString(event.value))
          .append("\"}]}");
    }
    return json.append("]}").toString();
  }
}
