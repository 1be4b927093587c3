package io.varve.reshaper.datasource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.local.VarveHome;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
import io.varve.local.testing.TestCassandra;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * A real Varve server ({@code cli/target}, built before this module) on the shared test Cassandra
 * with a metadata keyspace of its own, run as a child process, and its HTTP/JSON API: the data
 * sources are checked against what the server writes and reads.
 */
public final class VarveServerFixture implements AutoCloseable {

  /** Answers may carry a 20 MiB value: 27 MiB of base64, beyond Jackson's default bound. */
  private static final ObjectMapper JSON =
      new ObjectMapper(
          com.fasterxml.jackson.core.JsonFactory.builder()
              .streamReadConstraints(
                  com.fasterxml.jackson.core.StreamReadConstraints.builder()
                      .maxStringLength(128 << 20)
                      .build())
              .build());

  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  public final String metadataKeyspace;
  private final LocalVarveServer server;
  private final URI endpoint;

  public VarveServerFixture(String name) throws IOException {
    this(name, List.of(TestCassandra.contactPoint()), TestCassandra.localDatacenter());
  }

  /** A server on the Cassandra (or cluster) of {@code contactPoints}. */
  public VarveServerFixture(
      String name, List<java.net.InetSocketAddress> contactPoints, String localDatacenter)
      throws IOException {
    this.metadataKeyspace = name + "_meta";
    Path home = VarveHome.locate();
    Path dir = home.resolve("spark/target/it-servers/" + name);
    Files.createDirectories(dir);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path config = dir.resolve("varve.yaml");
    Files.writeString(
        config,
        "cassandra:\n  contactPoints: ["
            + contactPoints.stream()
                .map(c -> "\"" + c.getHostString() + ":" + c.getPort() + "\"")
                .collect(java.util.stream.Collectors.joining(", "))
            + "]\n  localDatacenter: "
            + localDatacenter
            + "\n  metadataKeyspace: "
            + metadataKeyspace
            + "\n  requestTimeout: 20s\ntimeseries:\n  sliceMaintenanceInterval: 1s\n");
    LocalVarveServerSettings settings =
        LocalVarveServerSettings.forDevelopment(home).toBuilder()
            .home(dir)
            .port(port)
            .heapSize("384m")
            .classpath(LocalVarveServerSettings.builtClasspath(home))
            .serveArgs(List.of("--config", config.toString(), "--port", Integer.toString(port)))
            .build();
    this.server = new LocalVarveServer(settings);
    this.endpoint = settings.endpoint();
    server.start();
    server.awaitReady(Duration.ofMinutes(2));
  }

  /** POSTs a request to {@code /v1/<rpc>}; the answer's JSON, or an error with its body. */
  public JsonNode post(String rpc, String json) {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(endpoint.resolve("/v1/" + rpc))
                  .header("Content-Type", "application/json")
                  .timeout(Duration.ofSeconds(60))
                  .POST(HttpRequest.BodyPublishers.ofString(json))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            rpc + " answered " + response.statusCode() + ": " + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * A CreateNamespace (or UpdateNamespace) request of a TimeSeries namespace of one-hour slices
   * with these buckets and accept limit.
   */
  public static String namespace(String name, long bucket, int eventBuckets, String acceptLimit) {
    return "{\"namespace\": \""
        + name
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"config\": {"
        + "\"timePartition\": {\"secondsPerTimeSlice\": \"3600\", \"secondsPerTimeBucket\": \""
        + bucket
        + "\", \"eventBuckets\": "
        + eventBuckets
        + "}, \"acceptLimit\": \""
        + acceptLimit
        + "\"}}]}";
  }

  /** Waits until GetNamespace lists a slice of {@code ns} that holds {@code at}. */
  public void awaitSliceAt(String ns, java.time.Instant at) throws InterruptedException {
    for (int i = 0; i < 120; i++) {
      JsonNode n = post("GetNamespace", "{\"namespace\": \"" + ns + "\"}");
      for (JsonNode slice : n.path("timeSlices")) {
        if (!at.isBefore(java.time.Instant.parse(slice.path("startTime").asText()))
            && at.isBefore(java.time.Instant.parse(slice.path("endTime").asText()))) {
          return;
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no slice of " + ns + " holds " + at);
  }

  /** An event item as the API reads it back. */
  public record Item(
      String series, long eventTimeMillis, String eventId, String key, String value) {
    /** The key and value as base64, comparable with the DataFrame's bytes. */
    public static Item of(String series, long time, String id, byte[] key, byte[] value) {
      return new Item(
          series,
          time,
          id,
          Base64.getEncoder().encodeToString(key),
          Base64.getEncoder().encodeToString(value));
    }
  }

  /** Every item of a series in {@code [from, to)}, through ReadEventRecords page by page. */
  public List<Item> read(String namespace, String series, String from, String to) {
    List<Item> items = new ArrayList<>();
    String token = "";
    do {
      JsonNode page =
          post(
              "ReadEventRecords",
              "{\"namespace\": \""
                  + namespace
                  + "\", \"timeSeriesId\": \""
                  + series
                  + "\", \"timeInterval\": {\"start\": \""
                  + from
                  + "\", \"end\": \""
                  + to
                  + "\"}, \"pageSize\": 1000"
                  + (token.isEmpty() ? "" : ", \"pageToken\": \"" + token + "\"")
                  + "}");
      for (JsonNode event : page.path("events")) {
        long time = java.time.Instant.parse(event.path("eventTime").asText()).toEpochMilli();
        for (JsonNode item : event.path("eventItems")) {
          items.add(
              new Item(
                  series,
                  time,
                  event.path("eventId").asText(),
                  item.path("eventItemKey").asText(),
                  item.path("eventItemValue").asText()));
        }
      }
      token = page.path("nextPageToken").asText("");
    } while (!token.isEmpty());
    return items;
  }

  /** An item as compared: its value by digest, a 20 MiB value being too long to show. */
  public record KvItem(String id, String key, String sha256, int size, long generationMicros) {
    public static KvItem of(String id, byte[] key, byte[] value, long generationMicros) {
      return new KvItem(
          id,
          Base64.getEncoder().encodeToString(key),
          VarveServerFixture.sha256(value),
          value.length,
          generationMicros);
    }
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A CreateNamespace request of a KeyValue namespace whose item table is {@code items}. */
  public static String kvNamespace(String name) {
    return "{\"namespace\": \""
        + name
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\","
        + " \"physical_storage\": {\"type\": \"CASSANDRA\", \"dataset\": \""
        + name
        + "\", \"table\": \"items\"}}]}";
  }

  /** UTF-8 bytes. */
  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Microseconds since the epoch. */
  public static long micros(java.time.Instant t) {
    return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
  }

  /** A PutItems item, key and value in base64. */
  public static String item(byte[] key, byte[] value) {
    return "{\"key\": \""
        + Base64.getEncoder().encodeToString(key)
        + "\", \"value\": \""
        + Base64.getEncoder().encodeToString(value)
        + "\"}";
  }

  /** An idempotency token. */
  public static String token(long micros, String nonce) {
    return "{\"generation_time\": \""
        + java.time.Instant.EPOCH.plusNanos(micros * 1000)
        + "\", \"token\": \""
        + nonce
        + "\"}";
  }

  /** A PutItems of {@code items} into record {@code id}. */
  public void put(String ns, String id, long micros, String nonce, List<String> items) {
    post(
        "PutItems",
        "{\"namespace\": \""
            + ns
            + "\", \"id\": \""
            + id
            + "\", \"idempotency_token\": "
            + token(micros, nonce)
            + ", \"items\": ["
            + String.join(", ", items)
            + "]}");
  }

  /** Every item of the records, through GetItems page by page. */
  public Set<KvItem> getItems(String ns, Set<String> ids) {
    Set<KvItem> items = new HashSet<>();
    for (String id : ids) {
      String page = "";
      do {
        JsonNode answer =
            post(
                "GetItems",
                "{\"namespace\": \""
                    + ns
                    + "\", \"id\": \""
                    + id
                    + "\""
                    + (page.isEmpty() ? "" : ", \"page_token\": \"" + page + "\"")
                    + "}");
        for (JsonNode item : answer.path("items")) {
          items.add(
              KvItem.of(
                  id,
                  Base64.getDecoder().decode(item.path("key").asText()),
                  Base64.getDecoder().decode(item.path("value").asText()),
                  micros(
                      java.time.Instant.parse(
                          item.path("metadata").path("generationTime").asText()))));
        }
        page = answer.path("nextPageToken").asText("");
      } while (!page.isEmpty());
    }
    return items;
  }

  @Override
  public void close() {
    server.stop(Duration.ofSeconds(30));
  }
}
