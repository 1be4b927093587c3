package io.varve.verify.cluster;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.client.CallSettings;
import io.varve.client.Paging;
import io.varve.client.Times;
import io.varve.client.VarveClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The calls of both services that the cluster tests make, through the Java client, each sent once:
 * a test of availability must see every refusal, so the client neither retries nor hedges.
 */
final class ClusterApi implements AutoCloseable {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  /** The whole time line: the reads are of everything a series holds. */
  private static final Instant FIRST = Instant.parse("2020-01-01T00:00:00Z");

  private static final Instant LAST = Instant.parse("2100-01-01T00:00:00Z");

  private final VarveClient client;

  /** A client of the server at {@code endpoint} ({@code host:port}). */
  ClusterApi(String endpoint) {
    this.client =
        VarveClient.builder()
            .endpoints(endpoint)
            .callSettings(CallSettings.defaults().withDeadline(DEADLINE).withoutHedging())
            .retries(0, Duration.ofMillis(50), Duration.ofSeconds(2))
            .build();
  }

  /** The answer to one call: its status, and what it returned when that is OK. */
  record Call<T>(String rpc, Status status, T answer) {
    boolean ok() {
      return status.isOk();
    }

    @Override
    public String toString() {
      return rpc + " " + status + (ok() ? " " + answer : "");
    }
  }

  /** A TimeSeries namespace of one-day slices, at the default consistency (LOCAL_QUORUM). */
  Call<Namespace> createTimeSeries(String namespace) {
    StorageConfig config =
        StorageConfig.newBuilder()
            .setTimePartition(
                TimePartition.newBuilder()
                    .setSecondsPerTimeSlice(86_400)
                    .setSecondsPerTimeBucket(3_600)
                    .setEventBuckets(4))
            .setAcceptLimit(com.google.protobuf.Duration.newBuilder().setSeconds(129_600))
            .build();
    return createNamespace(
        namespace,
        PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE").setConfig(config));
  }

  /** A KeyValue namespace whose reads and writes are LOCAL_QUORUM (READ_YOUR_WRITES). */
  Call<Namespace> createKeyValue(String namespace) {
    PhysicalStorage storage =
        PhysicalStorage.newBuilder()
            .setType("CASSANDRA")
            .setCluster("local")
            .setDataset(namespace)
            .setTable("items")
            .setConfig(
                StorageConfig.newBuilder()
                    .setConsistencyScope("LOCAL")
                    .setConsistencyTarget("READ_YOUR_WRITES"))
            .build();
    return createNamespace(
        namespace,
        PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE").setPhysicalStorage(storage));
  }

  private Call<Namespace> createNamespace(
      String namespace, PersistenceConfiguration.Builder storage) {
    CreateNamespaceRequest request =
        CreateNamespaceRequest.newBuilder()
            .setNamespace(namespace)
            .addPersistenceConfiguration(storage)
            .build();
    return call(
        "CreateNamespace",
        () -> client.controlPlane().createNamespace(request, CallSettings.defaults()));
  }

  /**
   * Writes events of {@code series} with these ids, a millisecond apart from {@code time}, the
   * value of each being its event id.
   */
  Call<WriteEventRecordsResponse> writeEvents(
      String namespace, String series, Instant time, List<String> eventIds) {
    WriteEventRecordsRequest.Builder request =
        WriteEventRecordsRequest.newBuilder().setNamespace(namespace);
    for (int i = 0; i < eventIds.size(); i++) {
      request.addEvents(
          Event.newBuilder()
              .setTimeSeriesId(series)
              .setEventTime(Times.timestamp(time.plusMillis(i)))
              .setEventId(eventIds.get(i))
              .addEventItems(
                  EventItem.newBuilder()
                      .setEventItemKey(ByteString.copyFromUtf8("v"))
                      .setEventItemValue(ByteString.copyFromUtf8(eventIds.get(i)))));
    }
    return call(
        "WriteEventRecordsSync", () -> client.timeSeries().writeEventRecordsSync(request.build()));
  }

  /**
   * The event ids of a series, newest first, every page followed (a read slower than the
   * namespace's latency max, as with a node down, answers a partial page with a token); null if a
   * read failed, which is added to {@code failures}.
   */
  List<String> readEventIds(String namespace, String series, List<Call<?>> failures) {
    ReadEventRecordsRequest request =
        ReadEventRecordsRequest.newBuilder()
            .setNamespace(namespace)
            .setTimeSeriesId(series)
            .setTimeInterval(Times.interval(FIRST, LAST))
            .setPageSize(1000)
            .build();
    return readAll(
        "ReadEventRecords",
        () ->
            client
                .timeSeries()
                .readAll(request, Paging.ACCEPT_PARTIAL_PAGES)
                .items()
                .map(Event::getEventId)
                .toList(),
        failures);
  }

  /** Puts one item into a record (the client makes its token, generated now), its value its key. */
  Call<PutItemsResponse> putItem(String namespace, String record, String key) {
    ByteString bytes = ByteString.copyFromUtf8(key);
    PutItemsRequest request =
        PutItemsRequest.newBuilder()
            .setNamespace(namespace)
            .setId(record)
            .addItems(Item.newBuilder().setKey(bytes).setValue(bytes))
            .build();
    return call("PutItems", () -> client.keyValue().putItems(request));
  }

  /**
   * The item keys of a record whose value equals their key, every page followed; null if a read
   * failed, which is added to {@code failures}.
   */
  List<String> readItemKeys(String namespace, String record, List<Call<?>> failures) {
    GetItemsRequest request =
        GetItemsRequest.newBuilder().setNamespace(namespace).setId(record).build();
    return readAll(
        "GetItems",
        () ->
            client
                .keyValue()
                .getAll(request, Paging.ACCEPT_PARTIAL_PAGES)
                .items()
                .filter(item -> item.getKey().equals(item.getValue()))
                .map(item -> item.getKey().toStringUtf8())
                .toList(),
        failures);
  }

  @Override
  public void close() {
    client.close();
  }

  private static <T> Call<T> call(String rpc, Supplier<CompletionStage<T>> call) {
    try {
      return new Call<>(rpc, Status.OK, VarveClient.join(call.get()));
    } catch (StatusRuntimeException e) {
      return new Call<>(rpc, e.getStatus(), null);
    }
  }

  private static List<String> readAll(
      String rpc, Supplier<List<String>> pages, List<Call<?>> failures) {
    try {
      return pages.get();
    } catch (StatusRuntimeException e) {
      failures.add(new Call<>(rpc, e.getStatus(), null));
      return null;
    }
  }
}
