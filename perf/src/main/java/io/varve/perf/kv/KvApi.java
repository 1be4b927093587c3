package io.varve.perf.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.varve.api.common.v1.EndpointSlo;
import io.varve.api.common.v1.LatencySlo;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.kv.v1.Selection;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.client.CallSettings;
import io.varve.client.KeyValueClient;
import io.varve.client.VarveClient;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * The KeyValue API as the benchmark calls it: through the Java client ({@link VarveClient}), as an
 * application would, with the benchmark's settings ({@link
 * io.varve.perf.environment.VarveServer#client}).
 */
final class KvApi {

  /** The deadline of every call: long enough for a full page on a loaded machine. */
  static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(60);

  /** The read latency max of the benchmark's namespaces: the largest a namespace may set. */
  static final Duration READ_MAX = Duration.ofSeconds(60);

  private final KeyValueClient client;

  KvApi(VarveClient client) {
    this.client = client.keyValue();
  }

  /**
   * Creates a KeyValue namespace whose table is {@code keyspace.table}, consistency LOCAL /
   * READ_YOUR_WRITES (LOCAL_QUORUM), items in ascending key order, and a read latency max of {@link
   * #READ_MAX}: the benchmark measures how long full pages take, so no page may stop early with a
   * partial answer (the default max, 2 s, cuts pages of tiny items on a loaded machine).
   */
  static void createNamespace(VarveClient client, String namespace, String keyspace, String table) {
    CreateNamespaceRequest request =
        CreateNamespaceRequest.newBuilder()
            .setNamespace(namespace)
            .setService("KEY_VALUE")
            .addPersistenceConfiguration(
                PersistenceConfiguration.newBuilder()
                    .setId("PRIMARY_STORAGE")
                    .setPhysicalStorage(
                        PhysicalStorage.newBuilder()
                            .setType("CASSANDRA")
                            .setDataset(keyspace)
                            .setTable(table)
                            .setConfig(
                                StorageConfig.newBuilder()
                                    .setConsistencyScope("LOCAL")
                                    .setConsistencyTarget("READ_YOUR_WRITES")
                                    .setClusteringOrder("ASC")
                                    .putSlos(
                                        "read",
                                        EndpointSlo.newBuilder()
                                            .setLatency(
                                                LatencySlo.newBuilder()
                                                    .setTarget(protoDuration(READ_MAX))
                                                    .setMax(protoDuration(READ_MAX)))
                                            .build()))))
            .build();
    VarveClient.join(
        client
            .controlPlane()
            .createNamespace(request, CallSettings.defaults().withDeadline(Duration.ofMinutes(2))));
  }

  private static com.google.protobuf.Duration protoDuration(Duration d) {
    return com.google.protobuf.Duration.newBuilder().setSeconds(d.toSeconds()).build();
  }

  /**
   * PutItems of {@code items} into record {@code id}, with a token generated now; completes with
   * the answer, fails if the server wrote fewer items.
   */
  CompletionStage<Void> put(String namespace, String id, List<ItemData.Item> items, Token token) {
    return client
        .putItems(putRequest(namespace, id, items, token), CallSettings.defaults())
        .thenAccept(
            (PutItemsResponse r) -> {
              if (r.getItemCount() != items.size()) {
                throw new IllegalStateException(
                    "PutItems wrote " + r.getItemCount() + " of " + items.size() + " items");
              }
            });
  }

  /** The PutItems request of {@code items} into record {@code id} with {@code token}. */
  static PutItemsRequest putRequest(
      String namespace, String id, List<ItemData.Item> items, Token token) {
    PutItemsRequest.Builder request =
        PutItemsRequest.newBuilder()
            .setNamespace(namespace)
            .setId(id)
            .setIdempotencyToken(
                IdempotencyToken.newBuilder()
                    .setGenerationTime(
                        Timestamp.newBuilder()
                            .setSeconds(Math.floorDiv(token.micros(), 1_000_000))
                            .setNanos((int) Math.floorMod(token.micros(), 1_000_000) * 1000))
                    .setToken(token.nonce()));
    for (ItemData.Item item : items) {
      request.addItems(
          Item.newBuilder()
              .setKey(ByteString.copyFrom(item.key()))
              .setValue(ByteString.copyFrom(item.value())));
    }
    return request.build();
  }

  /** Writes a whole record, request after request. */
  void putAll(String namespace, String id, List<List<ItemData.Item>> requests) {
    for (List<ItemData.Item> request : requests) {
      put(namespace, id, request, Token.now()).toCompletableFuture().join();
    }
  }

  /** The first page of a record's items, or the page after {@code pageToken} (empty: first). */
  GetItemsResponse get(String namespace, String id, int pageSizeBytes, String pageToken) {
    return VarveClient.join(
        client.getItems(
            GetItemsRequest.newBuilder()
                .setNamespace(namespace)
                .setId(id)
                .setSelection(Selection.newBuilder().setPageSizeBytes(pageSizeBytes))
                .setPageToken(pageToken)
                .build(),
            CallSettings.defaults()));
  }

  /**
   * An idempotency token: its generation time in microseconds (also the raw side's write time) and
   * its nonce.
   */
  record Token(long micros, String nonce) {

    static Token now() {
      java.time.Instant now = java.time.Instant.now();
      return new Token(
          now.getEpochSecond() * 1_000_000 + now.getNano() / 1000, UUID.randomUUID().toString());
    }
  }
}
