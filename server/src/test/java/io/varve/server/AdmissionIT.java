package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Overload on a real server with small admission budgets: many concurrent large writes over
 * HTTP/JSON and gRPC are answered 200 or RESOURCE_EXHAUSTED (429) and nothing else, refusals come
 * at once, a small read made meanwhile is served promptly, and the budget is all given back.
 */
class AdmissionIT {

  static final String NS = "admission_it";
  static final long WRITE_BUDGET = 32L * 1024 * 1024;
  static final int WRITERS = 12;
  static final int EVENTS = 200;
  static final int VALUE_BYTES = 16 * 1024;
  static TestServer server;
  static final HttpClient HTTP = TestHttp.client();
  static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @BeforeAll
  static void start() {
    ServerSettings settings =
        ServerSettings.defaults().toBuilder()
            .admission(
                new AdmissionSettings(
                    WRITE_BUDGET,
                    8L * 1024 * 1024,
                    AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY,
                    8L * 1024 * 1024,
                    AdmissionSettings.DEFAULT_BUFFERED_WRITE_RETRY))
            .build();
    server = new TestServer(settings, "varve_admission_it", NS);
    assertThat(
            server
                .post(
                    "CreateNamespace",
                    "{\"namespace\":\""
                        + NS
                        + "\",\"persistenceConfiguration\":[{\"id\":\"PRIMARY_STORAGE\"}]}")
                .status())
        .isEqualTo(200);
    assertThat(
            server
                .post(
                    "WriteEventRecordsSync",
                    Events.write(
                        NS, List.of(Events.event("probe", NOW.minusSeconds(60), "p1", "k", "v"))))
                .status())
        .isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void http_overload_is_answered_200_or_429_at_once_while_a_small_read_is_served()
      throws Exception {
    byte[] body = largeWrite(0).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    List<Long> refusalMillis = new CopyOnWriteArrayList<>();
    List<Long> acceptedMillis = new CopyOnWriteArrayList<>();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    AtomicBoolean overloading = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      writers.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 6; i++) {
                  try {
                    Answer r = Answer.post(server.server.port(), "/v1/WriteEventRecordsSync", body);
                    statuses
                        .computeIfAbsent(r.status(), s -> new AtomicInteger())
                        .incrementAndGet();
                    if (r.status() == 429) {
                      refusalMillis.add(r.millisAfterBody());
                      if (!r.body().contains("\"code\":\"RESOURCE_EXHAUSTED\"")
                          || !r.head().contains("\nretry-after: 1\n")) {
                        unexpected.add(
                            "429 without RESOURCE_EXHAUSTED or Retry-After: "
                                + r.head()
                                + " "
                                + r.body());
                      }
                    } else if (r.status() == 200) {
                      acceptedMillis.add(r.millisAfterBody());
                    } else {
                      unexpected.add(r.status() + " " + r.body());
                    }
                  } catch (Exception e) {
                    unexpected.add("no answer: " + e);
                  }
                }
                return null;
              }));
    }
    Future<Long> reads = pool.submit(() -> slowestRead(overloading));
    for (Future<?> f : writers) {
      f.get(5, TimeUnit.MINUTES);
    }
    overloading.set(false);
    long slowestRead = reads.get(1, TimeUnit.MINUTES);
    pool.shutdown();

    System.out.println(
        "admission http: statuses="
            + statuses
            + " refused ms="
            + refusalMillis.stream().sorted().toList()
            + " accepted ms="
            + acceptedMillis.stream().sorted().toList()
            + " slowest read ms="
            + slowestRead);
    assertThat(unexpected).isEmpty();
    assertThat(statuses.keySet()).containsExactlyInAnyOrder(200, 429);
    // timed from the body's last byte: an HTTP/1.1 client reads its answer only once it has sent
    // the
    // body, so the upload itself (slow on a loaded machine) is not the server's doing
    assertThat(median(refusalMillis))
        .as("median refusal latency after the body was sent, ms")
        .isLessThan(1_000);
    assertThat(median(refusalMillis))
        .as("a refusal is quicker than an accepted write")
        .isLessThan(median(acceptedMillis));
    assertThat(slowestRead).as("slowest 1-event read during the overload, ms").isLessThan(3_000);
    assertThat(
            metric(
                "varve_admission_refused_total{budget=\"write\",reason=\"declared\",transport=\"json\""))
        .isPositive();
    assertInFlightReturnsToZero();
  }

  @Test
  void grpc_overload_is_answered_ok_or_resource_exhausted_at_once() throws Exception {
    WriteEventRecordsRequest request = largeGrpcWrite();
    Map<String, AtomicInteger> codes = new ConcurrentHashMap<>();
    List<Long> refusalMillis = new CopyOnWriteArrayList<>();
    List<Long> acceptedMillis = new CopyOnWriteArrayList<>();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> writers = new ArrayList<>();
    List<com.linecorp.armeria.client.ClientFactory> factories = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      // a connection per writer, as separate clients would have: one shared HTTP/2 connection would
      // make each refusal wait for the other writers' uploads
      com.linecorp.armeria.client.ClientFactory factory =
          com.linecorp.armeria.client.ClientFactory.builder().build();
      factories.add(factory);
      TimeSeriesGrpc.TimeSeriesBlockingStub grpc =
          GrpcClients.builder(server.base())
              .factory(factory)
              .maxResponseLength(0)
              .build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
      writers.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 6; i++) {
                  long start = System.nanoTime();
                  Status.Code code;
                  try {
                    grpc.writeEventRecordsSync(request);
                    code = Status.Code.OK;
                    acceptedMillis.add((System.nanoTime() - start) / 1_000_000);
                  } catch (StatusRuntimeException e) {
                    code = e.getStatus().getCode();
                    if (code == Status.Code.RESOURCE_EXHAUSTED) {
                      refusalMillis.add((System.nanoTime() - start) / 1_000_000);
                    } else {
                      unexpected.add(e.getStatus().toString());
                    }
                  }
                  codes.computeIfAbsent(code.name(), c -> new AtomicInteger()).incrementAndGet();
                }
                return null;
              }));
    }
    for (Future<?> f : writers) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();
    factories.forEach(com.linecorp.armeria.client.ClientFactory::close);

    System.out.println(
        "admission grpc: codes="
            + codes
            + " refused ms="
            + refusalMillis.stream().sorted().toList()
            + " accepted ms="
            + acceptedMillis.stream().sorted().toList());
    assertThat(unexpected).isEmpty();
    assertThat(codes.keySet()).containsExactlyInAnyOrder("OK", "RESOURCE_EXHAUSTED");
    // a gRPC message has no Content-Length: it is refused once the part that does not fit has
    // arrived, so its upload (slow on a loaded machine) is part of the latency
    assertThat(median(refusalMillis)).as("median refusal latency, ms").isLessThan(3_000);
    assertThat(median(refusalMillis))
        .as("a refusal is quicker than an accepted write")
        .isLessThan(median(acceptedMillis));
    assertInFlightReturnsToZero();
  }

  @Test
  void a_streamed_body_is_counted_as_it_arrives_and_refused_beyond_the_budget() throws Exception {
    // no Content-Length (chunked): admission counts the chunks as they arrive. A first upload holds
    // 3 MB of body (18 MiB of the 32 MiB budget) and stalls; a second one of 4.4 MB cannot fit.
    byte[] body = largeWrite(1).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.util.concurrent.CompletableFuture<Void> giveUp =
        new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.CompletableFuture<HttpResponse<String>> holder =
        HTTP.sendAsync(
            streamed(chunks(body, 3_000_000, giveUp)), HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (metric("varve_limit_inuse_bytes{limit=\"admission_write\"") < 6 * 2_900_000
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }

    HttpResponse<String> refused =
        HTTP.send(streamed(chunks(body, body.length, null)), HttpResponse.BodyHandlers.ofString());
    giveUp.complete(null);

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"code\":\"RESOURCE_EXHAUSTED\"");
    assertThat(
            metric(
                "varve_admission_refused_total{budget=\"write\",reason=\"streamed\",transport=\"json\""))
        .isPositive();
    assertThat(holder).failsWithin(Duration.ofSeconds(30));
    assertInFlightReturnsToZero();
  }

  @Test
  void a_request_cancelled_by_its_client_gives_its_bytes_back() throws Exception {
    byte[] body = largeWrite(2).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.util.concurrent.CompletableFuture<Void> giveUp =
        java.util.concurrent.CompletableFuture.completedFuture(null);

    try {
      HTTP.send(
          streamed(chunks(body, body.length / 2, giveUp)), HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException expected) {
      // the client gave up half way
    }

    assertInFlightReturnsToZero();
  }

  /**
   * An HTTP/1.1 answer read off a plain socket, and how long after the body's last byte it came.
   */
  record Answer(int status, String head, String body, long millisAfterBody) {

    /** A header line without its CRLF; the connection must not end before it. */
    static String line(java.io.InputStream in) throws java.io.IOException {
      StringBuilder line = new StringBuilder();
      for (int c; (c = in.read()) != '\n'; ) {
        if (c < 0) {
          throw new java.io.IOException("connection closed after: " + line);
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }

    static Answer post(int port, String path, byte[] body) throws java.io.IOException {
      try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
        socket.setSoTimeout(120_000);
        java.io.OutputStream out = socket.getOutputStream();
        out.write(
            ("POST "
                    + path
                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\nConnection: close\r\n\r\n")
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        long sent = System.nanoTime();
        java.io.DataInputStream in =
            new java.io.DataInputStream(new java.io.BufferedInputStream(socket.getInputStream()));
        StringBuilder head = new StringBuilder();
        long millis = -1;
        int contentLength = 0;
        for (String line; !(line = line(in)).isEmpty(); ) {
          if (millis < 0) {
            millis = (System.nanoTime() - sent) / 1_000_000;
          }
          head.append(line.toLowerCase(java.util.Locale.ROOT)).append('\n');
          if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
            contentLength = Integer.parseInt(line.substring(15).trim());
          }
        }
        byte[] content = new byte[contentLength];
        in.readFully(content);
        String text = head.toString();
        if (!text.startsWith("http/1.1 ")) {
          throw new java.io.IOException("no HTTP answer: " + text);
        }
        return new Answer(
            Integer.parseInt(text.substring(9, 12)),
            text,
            new String(content, java.nio.charset.StandardCharsets.UTF_8),
            millis);
      }
    }
  }

  static HttpRequest streamed(Flow.Publisher<ByteBuffer> body) {
    return HttpRequest.newBuilder(URI.create(server.base() + "/v1/WriteEventRecordsSync"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.fromPublisher(body))
        .build();
  }

  /**
   * The first {@code limit} bytes of {@code body} in 64 KiB chunks, without a length; then the end,
   * or, when {@code giveUp} is given, a failure once it completes (the client aborts the upload).
   */
  static Flow.Publisher<ByteBuffer> chunks(
      byte[] body, long limit, java.util.concurrent.CompletableFuture<Void> giveUp) {
    return subscriber ->
        subscriber.onSubscribe(
            new Flow.Subscription() {
              long sent;
              boolean done;

              @Override
              public synchronized void request(long n) {
                for (long i = 0; i < n && !done; i++) {
                  if (sent >= limit) {
                    done = true;
                    if (giveUp != null) {
                      giveUp.thenRun(
                          () -> subscriber.onError(new java.io.IOException("client gave up")));
                    } else {
                      subscriber.onComplete();
                    }
                    return;
                  }
                  int from = (int) sent;
                  int len = (int) Math.min(64 * 1024, limit - sent);
                  sent += len;
                  subscriber.onNext(ByteBuffer.wrap(body, from, len));
                }
              }

              @Override
              public synchronized void cancel() {
                done = true;
              }
            });
  }

  static long median(List<Long> millis) {
    return millis.stream().sorted().toList().get(millis.size() / 2);
  }

  private static long slowestRead(AtomicBoolean overloading) throws Exception {
    String read =
        Events.read(NS, "probe", NOW.minusSeconds(3600), NOW.plusSeconds(3600)).toString();
    long slowest = 0;
    while (overloading.get()) {
      long start = System.nanoTime();
      HttpResponse<String> r =
          HTTP.send(post("ReadEventRecords", read), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      assertThat(r.body()).contains("\"p1\"");
      slowest = Math.max(slowest, (System.nanoTime() - start) / 1_000_000);
      Thread.sleep(50);
    }
    return slowest;
  }

  private static void assertInFlightReturnsToZero() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    double inFlight;
    do {
      inFlight =
          metric("varve_limit_inuse_bytes{limit=\"admission_write\"")
              + metric("varve_limit_inuse_bytes{limit=\"admission_read\"");
      if (inFlight == 0) {
        return;
      }
      Thread.sleep(100);
    } while (System.nanoTime() < deadline);
    assertThat(inFlight).as("bytes held by requests after the load is over").isZero();
  }

  /** Sum of the Prometheus samples whose line starts with {@code prefix}. */
  static double metric(String prefix) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.base() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    return r.body()
        .lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  static HttpRequest post(String rpc, String body) {
    return HttpRequest.newBuilder(URI.create(server.base() + "/v1/" + rpc))
        .header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(120))
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  /** 200 events of 16 KiB random values: about 4.4 MB of JSON, 26 MiB of estimated cost. */
  static String largeWrite(int seed) {
    return largeWrite(NS, seed);
  }

  static String largeWrite(String namespace, int seed) {
    Random random = new Random(seed);
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      byte[] value = new byte[VALUE_BYTES];
      random.nextBytes(value);
      ObjectNode e = Events.event("series-" + (i % 10), NOW.minusSeconds(i), "e" + seed + "-" + i);
      e.withArray("eventItems")
          .addObject()
          .put("eventItemKey", Events.b64("payload"))
          .put("eventItemValue", Events.b64(value));
      events.add(e);
    }
    return Events.write(namespace, events).toString();
  }

  /**
   * The same write as a protobuf message: about 3.3 MB, 13 MiB of estimated cost, a third of the
   * budget.
   */
  static WriteEventRecordsRequest largeGrpcWrite() {
    Random random = new Random(3);
    WriteEventRecordsRequest.Builder request =
        WriteEventRecordsRequest.newBuilder().setNamespace(NS);
    for (int i = 0; i < EVENTS; i++) {
      byte[] value = new byte[VALUE_BYTES];
      random.nextBytes(value);
      Instant t = NOW.minusSeconds(i);
      request.addEvents(
          Event.newBuilder()
              .setTimeSeriesId("grpc-" + (i % 10))
              .setEventId("g" + i)
              .setEventTime(Timestamp.newBuilder().setSeconds(t.getEpochSecond()))
              .addEventItems(
                  EventItem.newBuilder()
                      .setEventItemKey(ByteString.copyFromUtf8("payload"))
                      .setEventItemValue(ByteString.copyFrom(value))));
    }
    return request.build();
  }
}
