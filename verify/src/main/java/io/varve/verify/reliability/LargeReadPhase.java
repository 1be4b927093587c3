package io.varve.verify.reliability;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.google.protobuf.UnsafeByteOperations;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutOperation;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.zip.CRC32C;

/**
 * Large values under concurrent readers: one value of {@code valueBytes} (64 MiB by default, the
 * largest the server takes) is stored, then each round sends {@code readers} JSON and as many gRPC
 * calls at once of GetItems of it, then of ScanItems over it, then of MutateItems each putting a
 * value of nearly the request's 4 MiB bound. What a response holds is admitted like a request body,
 * so the server must answer each call whole (a read's value byte-exact) or refuse it (429 /
 * RESOURCE_EXHAUSTED) and nothing else: no 5xx or gRPC code standing for one, no other status, no
 * connection dropped; its resident memory must stay within its heap plus an allowance; every kind
 * of call must get through at least once.
 *
 * <p>Then the same for TimeSeries: {@code events} events of three 2 MiB items in one series, and
 * each round as many ReadEventRecords of a page of all of them at once. Each must answer the newest
 * events or be refused, and the Cassandra node must still run: pages of such events once asked it
 * for hundreds of MiB each, and it ran out of memory.
 */
final class LargeReadPhase implements Phase {

  /**
   * The signal of a client that takes response messages of any size (its stub sets no inbound
   * limit): the large value comes whole, in one message, rather than refused or in parts.
   */
  private static final java.util.Map<String, com.google.protobuf.Struct> ANY_MESSAGE =
      java.util.Map.of(
          "messages",
          com.google.protobuf.Struct.newBuilder()
              .putFields(
                  "maxBytes",
                  com.google.protobuf.Value.newBuilder().setNumberValue(Integer.MAX_VALUE).build())
              .build());

  /** Below MutateItems' 4 MiB bound of keys and values, with room for the keys. */
  private static final int MUTATION_VALUE_BYTES = 4 * 1024 * 1024 - 64 * 1024;

  private static final String RECORD = "large";

  /**
   * The phase's knobs: the stored value's size, calls of each transport per burst, rounds, and the
   * TimeSeries events of three 2 MiB items read in pages of all of them (0: none).
   */
  record Settings(int valueBytes, int readers, int rounds, int events, long rssAllowanceMb) {}

  /** The largest item value a TimeSeries event takes by default. */
  private static final int EVENT_ITEM_BYTES = 2 * 1024 * 1024;

  private static final String SERIES = "large";

  private final Settings settings;

  LargeReadPhase(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "large_reads";
  }

  @Override
  public void run(VerifyEnvironment env, Results results) throws Exception {
    VarveClient json = env.client();
    String namespace = env.namespace("large");
    createKeyValueNamespace(json, namespace);
    String endpoint = env.server().settings().endpoint().toString();
    KeyValueGrpc.KeyValueBlockingStub grpc =
        unbounded(endpoint, KeyValueGrpc.KeyValueBlockingStub.class);
    byte[] value = new byte[settings.valueBytes()];
    new Random(34).nextBytes(value);
    long checksum = crc(value);
    grpc.putItems(
        PutItemsRequest.newBuilder()
            .setNamespace(namespace)
            .setId(RECORD)
            .setIdempotencyToken(token())
            .addItems(item("v", value))
            .build());
    results.put(name() + ".value_bytes", settings.valueBytes());
    results.put(
        name() + ".calls_per_burst",
        settings.readers() + " JSON + " + settings.readers() + " gRPC");

    long heapMb = RssSampler.megabytes(env.server().settings().heapSize());
    long boundMb = heapMb + settings.rssAllowanceMb();
    StatusCounts gets = new StatusCounts();
    StatusCounts scans = new StatusCounts();
    StatusCounts mutations = new StatusCounts();
    AtomicLong mismatches = new AtomicLong();
    byte[] mutationValue = new byte[MUTATION_VALUE_BYTES];
    new Random(35).nextBytes(mutationValue);
    ExecutorService callers = Executors.newFixedThreadPool(2 * settings.readers());
    try (RssSampler rss = new RssSampler(env.server().status().pid())) {
      String getBody = "{\"namespace\":\"" + namespace + "\",\"id\":\"" + RECORD + "\"}";
      String scanBody = "{\"namespace\":\"" + namespace + "\"}";
      for (int round = 0; round < settings.rounds(); round++) {
        burst(
            callers,
            gets,
            () -> readJson(json, "GetItems", getBody, "/items/0/value", checksum, mismatches),
            () ->
                readGrpc(
                    () ->
                        grpc.getItems(
                                GetItemsRequest.newBuilder()
                                    .setNamespace(namespace)
                                    .setId(RECORD)
                                    .putAllSignals(ANY_MESSAGE)
                                    .build())
                            .getItems(0)
                            .getValue(),
                    checksum,
                    mismatches));
        burst(
            callers,
            scans,
            () ->
                readJson(json, "ScanItems", scanBody, "/items/0/item/value", checksum, mismatches),
            () ->
                readGrpc(
                    () ->
                        grpc.scanItems(
                                ScanItemsRequest.newBuilder()
                                    .setNamespace(namespace)
                                    .putAllSignals(ANY_MESSAGE)
                                    .build())
                            .getItems(0)
                            .getItem()
                            .getValue(),
                    checksum,
                    mismatches));
        burst(
            callers,
            mutations,
            () -> mutateJson(json, namespace, mutationValue),
            () -> mutateGrpc(grpc, namespace, mutationValue));
      }
      StatusCounts events = new StatusCounts();
      if (settings.events() > 0) {
        readEvents(env, json, endpoint, callers, events, mismatches, results);
      }
      rss.close();
      long rssMb = rss.maxBytes() / (1024 * 1024);
      StatusCounts[] all =
          settings.events() > 0
              ? new StatusCounts[] {gets, scans, mutations, events}
              : new StatusCounts[] {gets, scans, mutations};
      String[] kinds = {"get", "scan", "mutate", "event_read"};
      long serverErrors = 0;
      long other = 0;
      long transport = 0;
      for (int i = 0; i < all.length; i++) {
        results.put(name() + "." + kinds[i] + "_ok", all[i].ok());
        results.put(name() + "." + kinds[i] + "_refused", all[i].refused());
        results.check(
            name() + "." + kinds[i] + "_ok",
            all[i].ok() > 0,
            "at least one " + kinds[i] + " answered whole");
        serverErrors += all[i].serverErrors();
        other += all[i].otherCount();
        transport += all[i].transportErrors();
      }
      results.put(name() + ".status_5xx", serverErrors);
      results.put(name() + ".status_other", other);
      results.put(name() + ".transport_failures", transport);
      results.put(name() + ".value_mismatches", mismatches.get());
      results.put(name() + ".server_rss_max_mb", rssMb);
      results.put(
          name() + ".server_rss_bound_mb",
          boundMb + " (heap " + heapMb + " + allowance " + settings.rssAllowanceMb() + ")");
      results.check(name() + ".status_5xx", serverErrors == 0, "0 (no 5xx, no INTERNAL)");
      results.check(name() + ".status_other", other == 0, "0 (only OK and 429)");
      results.check(name() + ".transport_failures", transport == 0, "0 (every call answered)");
      results.check(name() + ".value_mismatches", mismatches.get() == 0, "0 (values byte-exact)");
      results.check(name() + ".server_rss_max_mb", rssMb <= boundMb, "at most " + boundMb);
    } finally {
      callers.shutdownNow();
    }
  }

  /**
   * Stores the events in a namespace of its own, then each round reads a page of all of them with
   * {@code settings.readers()} calls of each transport at once; checks that Cassandra still runs.
   */
  private void readEvents(
      VerifyEnvironment env,
      VarveClient json,
      String endpoint,
      ExecutorService callers,
      StatusCounts reads,
      AtomicLong mismatches,
      Results results)
      throws Exception {
    String namespace = env.namespace("large_events");
    json.createNamespace(namespace);
    TimeSeriesGrpc.TimeSeriesBlockingStub ts =
        unbounded(endpoint, TimeSeriesGrpc.TimeSeriesBlockingStub.class);
    Instant first = Instant.now().minusSeconds(3600).truncatedTo(ChronoUnit.SECONDS);
    Random random = new Random(36);
    for (int i = 0; i < settings.events(); i += 4) {
      WriteEventRecordsRequest.Builder write =
          WriteEventRecordsRequest.newBuilder().setNamespace(namespace);
      for (int e = i; e < Math.min(settings.events(), i + 4); e++) {
        Event.Builder event =
            Event.newBuilder()
                .setTimeSeriesId(SERIES)
                .setEventTime(timestamp(first.plusSeconds(e)))
                .setEventId("e" + e);
        for (String key : List.of("a", "b", "c")) {
          byte[] value = new byte[EVENT_ITEM_BYTES];
          random.nextBytes(value);
          event.addEventItems(
              EventItem.newBuilder()
                  .setEventItemKey(ByteString.copyFromUtf8(key))
                  .setEventItemValue(UnsafeByteOperations.unsafeWrap(value)));
        }
        write.addEvents(event);
      }
      int written = ts.writeEventRecordsSync(write.build()).getWrittenCount();
      if (written != write.getEventsCount()) {
        throw new IllegalStateException(
            "wrote " + written + " of " + write.getEventsCount() + " large events");
      }
    }
    results.put(name() + ".events", settings.events() + " of 3 x 2 MiB items, one series");
    String newest = "e" + (settings.events() - 1);
    ReadEventRecordsRequest request =
        ReadEventRecordsRequest.newBuilder()
            .setNamespace(namespace)
            .setTimeSeriesId(SERIES)
            .setTimeInterval(
                TimeInterval.newBuilder()
                    .setStart(timestamp(first))
                    .setEnd(timestamp(first.plusSeconds(settings.events()))))
            .setPageSize(Math.min(settings.events(), 1000))
            .build();
    String body =
        "{\"namespace\":\""
            + namespace
            + "\",\"timeSeriesId\":\""
            + SERIES
            + "\",\"pageSize\":"
            + Math.min(settings.events(), 1000)
            + ",\"timeInterval\":{\"start\":\""
            + first
            + "\",\"end\":\""
            + first.plusSeconds(settings.events())
            + "\"}}";
    for (int round = 0; round < settings.rounds(); round++) {
      burst(
          callers,
          reads,
          () -> {
            VarveClient.Answer answer =
                post(json, "ReadEventRecords", body.getBytes(StandardCharsets.UTF_8));
            if (answer.ok()) {
              try {
                if (!VarveClient.LARGE_JSON
                    .readTree(answer.body())
                    .at("/events/0/eventId")
                    .asText()
                    .equals(newest)) {
                  mismatches.incrementAndGet();
                }
              } catch (java.io.IOException e) {
                mismatches.incrementAndGet();
              }
            }
            return answer.status();
          },
          () -> {
            try {
              if (!ts.readEventRecords(request).getEvents(0).getEventId().equals(newest)) {
                mismatches.incrementAndGet();
              }
              return 200;
            } catch (StatusRuntimeException e) {
              return httpStatusOf(e.getStatus());
            }
          });
    }
    boolean cassandraRuns = env.cassandra().status().isRunning();
    results.put(name() + ".cassandra_running", cassandraRuns);
    results.check(
        name() + ".cassandra_running", cassandraRuns, "true (the node survived the readers)");
  }

  /** A gRPC client of the server without bounds on message sizes. */
  private static <T> T unbounded(String endpoint, Class<T> stub) {
    return GrpcClients.builder(endpoint)
        .maxResponseLength(0)
        .maxResponseMessageLength(-1)
        .maxRequestMessageLength(-1)
        .responseTimeout(Duration.ofMinutes(2))
        .build(stub);
  }

  private static Timestamp timestamp(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }

  /** {@code settings.readers()} calls of each transport at once; waits for all. */
  private void burst(
      ExecutorService callers,
      StatusCounts counts,
      Supplier<Integer> jsonCall,
      Supplier<Integer> grpcCall) {
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int i = 0; i < settings.readers(); i++) {
      for (Supplier<Integer> call : List.of(jsonCall, grpcCall)) {
        calls.add(
            CompletableFuture.supplyAsync(call, callers)
                .handle(
                    (status, failure) -> {
                      if (failure != null) {
                        counts.recordTransportError(failure);
                      } else {
                        counts.record(status);
                      }
                      return null;
                    }));
      }
    }
    calls.forEach(CompletableFuture::join);
  }

  private static int readJson(
      VarveClient json,
      String rpc,
      String body,
      String valuePath,
      long checksum,
      AtomicLong mismatches) {
    VarveClient.Answer answer = post(json, rpc, body.getBytes(StandardCharsets.UTF_8));
    if (answer.ok()) {
      try {
        String encoded = VarveClient.LARGE_JSON.readTree(answer.body()).at(valuePath).asText();
        if (crc(Base64.getDecoder().decode(encoded)) != checksum) {
          mismatches.incrementAndGet();
        }
      } catch (java.io.IOException e) {
        mismatches.incrementAndGet();
      }
    }
    return answer.status();
  }

  private static int readGrpc(Supplier<ByteString> call, long checksum, AtomicLong mismatches) {
    try {
      if (crc(call.get().toByteArray()) != checksum) {
        mismatches.incrementAndGet();
      }
      return 200;
    } catch (StatusRuntimeException e) {
      return httpStatusOf(e.getStatus());
    }
  }

  private static int mutateJson(VarveClient json, String namespace, byte[] value) {
    String body =
        "{\"namespace\":\""
            + namespace
            + "\",\"idempotency_token\":{\"generation_time\":\""
            + Instant.now()
            + "\",\"token\":\""
            + UUID.randomUUID()
            + "\"},\"mutations\":[{\"id\":\"mutated\",\"put\":{\"items\":[{\"key\":\"a2V5\",\"value\":\""
            + Base64.getEncoder().encodeToString(value)
            + "\"}]}}]}";
    return post(json, "MutateItems", body.getBytes(StandardCharsets.UTF_8)).status();
  }

  private static int mutateGrpc(
      KeyValueGrpc.KeyValueBlockingStub grpc, String namespace, byte[] value) {
    try {
      grpc.mutateItems(
          MutateItemsRequest.newBuilder()
              .setNamespace(namespace)
              .setIdempotencyToken(token())
              .addMutations(
                  Mutation.newBuilder()
                      .setId("mutated")
                      .setPut(PutOperation.newBuilder().addItems(item("key", value))))
              .build());
      return 200;
    } catch (StatusRuntimeException e) {
      return httpStatusOf(e.getStatus());
    }
  }

  /**
   * The HTTP status the JSON binding answers for a gRPC status: 429 for RESOURCE_EXHAUSTED, 5xx for
   * the codes that stand for a server failure, 400 for the others.
   */
  static int httpStatusOf(Status status) {
    return switch (status.getCode()) {
      case OK -> 200;
      case RESOURCE_EXHAUSTED -> 429;
      case INTERNAL, UNKNOWN, DATA_LOSS -> 500;
      case UNAVAILABLE -> 503;
      case DEADLINE_EXCEEDED -> 504;
      default -> 400;
    };
  }

  private static VarveClient.Answer post(VarveClient json, String rpc, byte[] body) {
    try {
      return json.post(rpc, body, Duration.ofMinutes(2));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void createKeyValueNamespace(VarveClient json, String namespace) throws Exception {
    String body =
        "{\"namespace\":\""
            + namespace
            + "\",\"service\":\"KEY_VALUE\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\","
            + "\"physical_storage\":{\"dataset\":\""
            + namespace
            + "\",\"table\":\"items\"}}]}";
    VarveClient.Answer answer =
        json.post("CreateNamespace", body.getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(1));
    if (!answer.ok()) {
      throw new IllegalStateException("CreateNamespace " + namespace + ": " + answer.body());
    }
  }

  private static Item item(String key, byte[] value) {
    return Item.newBuilder()
        .setKey(ByteString.copyFromUtf8(key))
        .setValue(UnsafeByteOperations.unsafeWrap(value))
        .build();
  }

  private static IdempotencyToken token() {
    Instant now = Instant.now();
    return IdempotencyToken.newBuilder()
        .setGenerationTime(
            Timestamp.newBuilder()
                .setSeconds(now.getEpochSecond())
                .setNanos(now.getNano() / 1000 * 1000))
        .setToken(UUID.randomUUID().toString())
        .build();
  }

  private static long crc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return crc.getValue();
  }
}
