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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
 */
final class LargeReadPhase implements Phase {

  /** Below MutateItems' 4 MiB bound of keys and values, with room for the keys. */
  private static final int MUTATION_VALUE_BYTES = 4 * 1024 * 1024 - 64 * 1024;

  private static final String RECORD = "large";

  /** The phase's knobs: the stored value's size, calls of each transport per burst, rounds. */
  record Settings(int valueBytes, int readers, int rounds, long rssAllowanceMb) {}

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
        GrpcClients.builder(endpoint)
            .maxResponseLength(0)
            .maxResponseMessageLength(-1)
            .maxRequestMessageLength(-1)
            .responseTimeout(Duration.ofMinutes(2))
            .build(KeyValueGrpc.KeyValueBlockingStub.class);
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
                                ScanItemsRequest.newBuilder().setNamespace(namespace).build())
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
      rss.close();
      long rssMb = rss.maxBytes() / (1024 * 1024);
      StatusCounts[] all = {gets, scans, mutations};
      String[] kinds = {"get", "scan", "mutate"};
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
