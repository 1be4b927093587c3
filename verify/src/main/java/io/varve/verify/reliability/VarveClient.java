package io.varve.verify.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

/**
 * The Varve HTTP/JSON API as the suite uses it: {@code POST /v1/<Rpc>} with a JSON body. Thread
 * safe (one {@link HttpClient}, HTTP/1.1, one connection per concurrent request).
 */
public final class VarveClient {

  static final ObjectMapper JSON = new ObjectMapper();

  /** A reader of answers carrying large values: no bound on the length of a string. */
  static final ObjectMapper LARGE_JSON =
      new ObjectMapper(
          com.fasterxml.jackson.core.JsonFactory.builder()
              .streamReadConstraints(
                  com.fasterxml.jackson.core.StreamReadConstraints.builder()
                      .maxStringLength(Integer.MAX_VALUE)
                      .build())
              .build());

  private final String baseUrl;
  private final HttpClient http;

  public VarveClient(String baseUrl) {
    this.baseUrl = baseUrl;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(
                Executors.newCachedThreadPool(
                    r -> {
                      Thread thread = new Thread(r, "verify-http");
                      thread.setDaemon(true);
                      return thread;
                    }))
            .build();
  }

  /** An answer: the HTTP status and the body. */
  public record Answer(int status, String body) {
    public boolean ok() {
      return status == 200;
    }
  }

  /** Posts a body and waits; a transport failure (connection refused or reset, timeout) throws. */
  public Answer post(String rpc, byte[] body, Duration timeout)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(request(rpc, body, timeout), HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body());
  }

  /** Posts a body without waiting; the future fails on a transport failure. */
  public CompletableFuture<Answer> postAsync(String rpc, byte[] body, Duration timeout) {
    return http.sendAsync(request(rpc, body, timeout), HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> new Answer(r.statusCode(), r.body()));
  }

  private HttpRequest request(String rpc, byte[] body, Duration timeout) {
    return HttpRequest.newBuilder(URI.create(baseUrl + "/v1/" + rpc))
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
  }

  /** Creates a namespace of one-day slices and one-hour buckets accepting events up to 36 h old. */
  public void createNamespace(String namespace) throws IOException, InterruptedException {
    String body =
        "{\"namespace\":\""
            + namespace
            + "\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\","
            + "\"config\":{\"timePartition\":{\"secondsPerTimeSlice\":\"86400\",\"secondsPerTimeBucket\":\"3600\","
            + "\"eventBuckets\":4},\"acceptLimit\":\"129600s\"}}]}";
    Answer answer = postWithRetry("CreateNamespace", body.getBytes(StandardCharsets.UTF_8));
    if (!answer.ok()) {
      throw new IllegalStateException(
          "CreateNamespace " + namespace + " answered " + answer.status() + ": " + answer.body());
    }
  }

  /** The positions of {@code writtenIndexes} in a 200 answer of WriteEventRecordsSync. */
  public static BitSet writtenIndexes(String responseBody) throws IOException {
    BitSet written = new BitSet();
    for (JsonNode index : JSON.readTree(responseBody).path("writtenIndexes")) {
      written.set(index.asInt());
    }
    return written;
  }

  /**
   * Every event of a series in {@code [start, end)}, all pages; retries a page answered 503 (the
   * store coming back) for up to two minutes.
   */
  public List<ReadEvent> readAll(String namespace, String seriesId, Instant start, Instant end)
      throws IOException, InterruptedException {
    List<ReadEvent> events = new ArrayList<>();
    String pageToken = "";
    do {
      String body =
          "{\"namespace\":\""
              + namespace
              + "\",\"timeSeriesId\":\""
              + seriesId
              + "\",\"timeInterval\":{\"start\":\""
              + start
              + "\",\"end\":\""
              + end
              + "\"},\"pageSize\":1000"
              + (pageToken.isEmpty() ? "" : ",\"pageToken\":\"" + pageToken + "\"")
              + "}";
      Answer answer = postWithRetry("ReadEventRecords", body.getBytes(StandardCharsets.UTF_8));
      JsonNode page = JSON.readTree(answer.body());
      for (JsonNode event : page.path("events")) {
        byte[] value = null;
        for (JsonNode item : event.path("eventItems")) {
          if (item.path("eventItemKey").asText().equals(TestEvent.ITEM_KEY)) {
            value = Base64.getDecoder().decode(item.path("eventItemValue").asText());
          }
        }
        events.add(
            new ReadEvent(
                event.path("timeSeriesId").asText(),
                event.path("eventTime").asText(),
                event.path("eventId").asText(),
                value));
      }
      pageToken = page.path("nextPageToken").asText("");
    } while (!pageToken.isEmpty());
    return events;
  }

  /** Posts, retrying a transport failure or a 503 (the store coming back) for up to two minutes. */
  private Answer postWithRetry(String rpc, byte[] body) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      Answer answer;
      try {
        answer = post(rpc, body, Duration.ofSeconds(30));
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(500);
        continue;
      }
      if (answer.ok()) {
        return answer;
      }
      if (answer.status() != 503 || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            rpc + " answered " + answer.status() + ": " + answer.body());
      }
      Thread.sleep(500);
    }
  }
}
