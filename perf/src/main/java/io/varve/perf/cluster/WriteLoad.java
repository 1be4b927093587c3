package io.varve.perf.cluster;

import io.varve.local.cassandra.LocalCassandraSecurity;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop writers of WriteEventRecordsSync over HTTP/JSON (HTTPS with the token when the setup
 * is secure): {@code concurrency} threads, each sending a batch of events of its own series and
 * waiting for the answer. The rate counts the events acknowledged ({@code writtenCount}) during the
 * measured window only.
 */
final class WriteLoad {

  private final String endpoint;
  private final String token;
  private final HttpClient http;
  private final int concurrency;
  private final int batch;
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private String namespace;

  WriteLoad(String endpoint, LocalCassandraSecurity security, int concurrency, int batch)
      throws IOException, GeneralSecurityException {
    this.endpoint = endpoint;
    this.token = security == null ? null : security.apiToken();
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5));
    if (security != null) {
      builder.sslContext(security.clientContext());
    }
    this.http = builder.build();
    this.concurrency = concurrency;
    this.batch = batch;
  }

  void createNamespace(String name) throws IOException, InterruptedException {
    this.namespace = name;
    HttpResponse<String> answer =
        post(
            "CreateNamespace",
            "{\"namespace\":\""
                + name
                + "\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\",\"config\":{"
                + "\"timePartition\":{\"secondsPerTimeSlice\":\"86400\",\"secondsPerTimeBucket\":\"3600\","
                + "\"eventBuckets\":4},\"acceptLimit\":\"129600s\"}}]}");
    if (answer.statusCode() != 200) {
      throw new IOException(
          "CreateNamespace answered " + answer.statusCode() + ": " + answer.body());
    }
  }

  /** Writes for {@code warmup}, then measures for {@code duration}; returns events per second. */
  double run(Duration warmup, Duration duration) throws InterruptedException {
    long warmupEnd = System.nanoTime() + warmup.toNanos();
    long end = warmupEnd + duration.toNanos();
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < concurrency; w++) {
      String series = "writer-" + w;
      Thread writer = new Thread(() -> write(series, warmupEnd, end), "perf-cluster-" + w);
      writer.start();
      writers.add(writer);
    }
    for (Thread writer : writers) {
      writer.join();
    }
    return acknowledged.get() / (duration.toNanos() / 1e9);
  }

  long failed() {
    return failed.get();
  }

  private void write(String series, long warmupEnd, long end) {
    while (System.nanoTime() < end) {
      try {
        HttpResponse<String> answer = post("WriteEventRecordsSync", batch(series));
        boolean measured = System.nanoTime() > warmupEnd;
        if (answer.statusCode() != 200) {
          failed.incrementAndGet();
        } else if (measured) {
          acknowledged.addAndGet(writtenCount(answer.body()));
        }
      } catch (IOException e) {
        failed.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private String batch(String series) {
    Instant time = Instant.now().minus(10, ChronoUnit.MINUTES);
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < batch; i++) {
      events
          .append(i == 0 ? "" : ",")
          .append("{\"timeSeriesId\":\"")
          .append(series)
          .append("\",\"eventTime\":\"")
          .append(time.plusMillis(i))
          .append("\",\"eventId\":\"")
          .append(UUID.randomUUID())
          .append("\",\"eventItems\":[{\"eventItemKey\":\"aw==\",\"eventItemValue\":\"")
          .append("dmFsdWUtb2YtYWJvdXQtb25lLWh1bmRyZWQtYnl0ZXMtLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0t")
          .append("\"}]}");
    }
    return "{\"namespace\":\"" + namespace + "\",\"events\":[" + events + "]}";
  }

  private static long writtenCount(String body) {
    int at = body.indexOf("\"writtenCount\":");
    if (at < 0) {
      return 0;
    }
    int from = at + "\"writtenCount\":".length();
    int to = from;
    while (to < body.length() && (Character.isDigit(body.charAt(to)) || body.charAt(to) == '"')) {
      to++;
    }
    return Long.parseLong(body.substring(from, to).replace("\"", ""));
  }

  private HttpResponse<String> post(String rpc, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(endpoint + "/v1/" + rpc))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
