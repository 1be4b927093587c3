package io.varve.verify.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.verify.reliability.VarveClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * The calls of both services that the cluster tests make over HTTP/JSON, each sent once: a test of
 * availability must see every refusal, so nothing here retries.
 */
final class ClusterApi {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** More pages than any read of the test can have, even one event per partial page. */
  private static final int MAX_PAGES = 10_000;

  private final VarveClient client;

  ClusterApi(String endpoint) {
    this.client = new VarveClient(endpoint);
  }

  /** The answer to one call: status and body, or the exception's text when none came. */
  record Call(String rpc, int status, String body) {
    boolean ok() {
      return status == 200;
    }

    @Override
    public String toString() {
      return rpc + " " + status + " " + body;
    }
  }

  Call post(String rpc, String body) throws InterruptedException {
    try {
      VarveClient.Answer answer = client.post(rpc, body.getBytes(StandardCharsets.UTF_8), TIMEOUT);
      return new Call(rpc, answer.status(), answer.body());
    } catch (IOException e) {
      return new Call(rpc, -1, e.toString());
    }
  }

  /** A TimeSeries namespace of one-day slices, at the default consistency (LOCAL_QUORUM). */
  Call createTimeSeries(String namespace) throws InterruptedException {
    return post(
        "CreateNamespace",
        "{\"namespace\":\""
            + namespace
            + "\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\",\"config\":{"
            + "\"timePartition\":{\"secondsPerTimeSlice\":\"86400\",\"secondsPerTimeBucket\":\"3600\","
            + "\"eventBuckets\":4},\"acceptLimit\":\"129600s\"}}]}");
  }

  /** A KeyValue namespace whose reads and writes are LOCAL_QUORUM (READ_YOUR_WRITES). */
  Call createKeyValue(String namespace) throws InterruptedException {
    return post(
        "CreateNamespace",
        "{\"namespace\":\""
            + namespace
            + "\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\",\"physical_storage\":"
            + "{\"type\":\"CASSANDRA\",\"cluster\":\"local\",\"dataset\":\""
            + namespace
            + "\",\"table\":\"items\",\"config\":{\"consistency_scope\":\"LOCAL\","
            + "\"consistency_target\":\"READ_YOUR_WRITES\"}}}]}");
  }

  /** Writes {@code events} events of {@code series}, the value of each being its event id. */
  Call writeEvents(String namespace, String series, Instant time, List<String> eventIds)
      throws InterruptedException {
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < eventIds.size(); i++) {
      events
          .append(i == 0 ? "" : ",")
          .append("{\"timeSeriesId\":\"")
          .append(series)
          .append("\",\"eventTime\":\"")
          .append(time.plusMillis(i))
          .append("\",\"eventId\":\"")
          .append(eventIds.get(i))
          .append("\",\"eventItems\":[{\"eventItemKey\":\"")
          .append(base64("v"))
          .append("\",\"eventItemValue\":\"")
          .append(base64(eventIds.get(i)))
          .append("\"}]}");
    }
    return post(
        "WriteEventRecordsSync",
        "{\"namespace\":\"" + namespace + "\",\"events\":[" + events + "]}");
  }

  /** The event ids of a series, newest first, from one page; null if the read failed. */
  List<String> readEventIds(String namespace, String series, List<Call> failures)
      throws InterruptedException, IOException {
    List<String> ids = new ArrayList<>();
    String token = "";
    // a read slower than the namespace's latency max (a node down) answers a partial page with a
    // token: a reader follows the tokens to the end
    for (int page = 0; page < MAX_PAGES; page++) {
      Call call =
          post(
              "ReadEventRecords",
              "{\"namespace\":\""
                  + namespace
                  + "\",\"timeSeriesId\":\""
                  + series
                  + "\",\"timeInterval\":{\"start\":\"2020-01-01T00:00:00Z\","
                  + "\"end\":\"2100-01-01T00:00:00Z\"},\"pageSize\":1000,\"pageToken\":\""
                  + token
                  + "\"}");
      if (!call.ok()) {
        failures.add(call);
        return null;
      }
      JsonNode body = JSON.readTree(call.body());
      for (JsonNode event : body.path("events")) {
        ids.add(event.path("eventId").asText());
      }
      token = body.path("nextPageToken").asText();
      if (token.isEmpty()) {
        return ids;
      }
    }
    throw new AssertionError("a read of " + series + " still had pages after " + MAX_PAGES);
  }

  /** Puts one item into a record, generated now, whose value is its key. */
  Call putItem(String namespace, String record, String key) throws InterruptedException {
    return post(
        "PutItems",
        "{\"namespace\":\""
            + namespace
            + "\",\"id\":\""
            + record
            + "\",\"idempotency_token\":{\"generation_time\":\""
            + Instant.now()
            + "\",\"token\":\""
            + UUID.randomUUID()
            + "\"},\"items\":[{\"key\":\""
            + base64(key)
            + "\",\"value\":\""
            + base64(key)
            + "\"}]}");
  }

  /** The item keys of a record whose value equals their key; null if the read failed. */
  List<String> readItemKeys(String namespace, String record, List<Call> failures)
      throws InterruptedException, IOException {
    List<String> keys = new ArrayList<>();
    String token = "";
    for (int page = 0; page < MAX_PAGES; page++) {
      Call call =
          post(
              "GetItems",
              "{\"namespace\":\""
                  + namespace
                  + "\",\"id\":\""
                  + record
                  + "\",\"pageToken\":\""
                  + token
                  + "\"}");
      if (!call.ok()) {
        failures.add(call);
        return null;
      }
      JsonNode body = JSON.readTree(call.body());
      for (JsonNode item : body.path("items")) {
        String key = decode(item.path("key").asText());
        if (key.equals(decode(item.path("value").asText()))) {
          keys.add(key);
        }
      }
      token = body.path("nextPageToken").asText();
      if (token.isEmpty()) {
        return keys;
      }
    }
    throw new AssertionError("a read of " + record + " still had pages after " + MAX_PAGES);
  }

  /** The indexes a 200 answer of WriteEventRecordsSync says were written. */
  static int writtenCount(Call call) throws IOException {
    return VarveClient.writtenIndexes(call.body()).cardinality();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
