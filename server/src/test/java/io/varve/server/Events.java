package io.varve.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Builds JSON requests of the data plane in tests. */
final class Events {

  private Events() {}

  static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static String b64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  static ObjectNode event(String series, Instant time, String id, String... keyValues) {
    ObjectNode e = TestServer.JSON.createObjectNode();
    e.put("timeSeriesId", series).put("eventTime", time.toString()).put("eventId", id);
    ArrayNode items = e.putArray("eventItems");
    for (int i = 0; i < keyValues.length; i += 2) {
      items
          .addObject()
          .put("eventItemKey", b64(keyValues[i]))
          .put("eventItemValue", b64(keyValues[i + 1]));
    }
    return e;
  }

  static ObjectNode write(String namespace, List<ObjectNode> events) {
    ObjectNode w = TestServer.JSON.createObjectNode().put("namespace", namespace);
    w.putArray("events").addAll(events);
    return w;
  }

  static ObjectNode read(String namespace, String series, Instant start, Instant end) {
    ObjectNode r =
        TestServer.JSON.createObjectNode().put("namespace", namespace).put("timeSeriesId", series);
    r.putObject("timeInterval").put("start", start.toString()).put("end", end.toString());
    return r;
  }

  /** Event ids of a read response, in order. */
  static List<String> ids(JsonNode response) {
    List<String> ids = new ArrayList<>();
    response.path("events").forEach(e -> ids.add(e.path("eventId").asText()));
    return ids;
  }
}
