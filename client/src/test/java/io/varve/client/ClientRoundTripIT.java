package io.varve.client;

import static io.varve.client.VarveClient.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.varve.api.kv.v1.DeleteOperation;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.kv.v1.PutOperation;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScannedItem;
import io.varve.api.kv.v1.Selection;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The client's TimeSeries and KeyValue calls end to end, on a real server and Cassandra. */
class ClientRoundTripIT {

  static final String TS = "client_rt_ts";
  static final String KV = "client_rt_kv";
  static TestVarve varve;
  static VarveClient client;

  @BeforeAll
  static void start() {
    varve = new TestVarve("varve_client_rt_it", "client_rt_ts_data", "client_rt_kv_data");
    client = VarveClient.builder().endpoints(varve.endpoint()).compressionThreshold(1024).build();
    CallSettings once = CallSettings.defaults().withDeadline(Duration.ofSeconds(60));
    join(
        client
            .controlPlane()
            .createNamespace(TestVarve.timeSeriesNamespace(TS, "client_rt_ts_data"), once));
    join(
        client
            .controlPlane()
            .createNamespace(
                TestVarve.keyValueNamespace(
                    KV,
                    "client_rt_kv_data",
                    "items",
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(10)),
                once));
  }

  @AfterAll
  static void stop() {
    client.close();
    varve.close();
  }

  @Test
  void the_client_lists_a_namespaces_slices_and_deletes_a_namespace_with_its_confirmation() {
    CallSettings once = CallSettings.defaults().withDeadline(Duration.ofSeconds(60));
    var slices = join(client.controlPlane().listTimeSlices(TS, once)).getTimeSlicesList();
    assertThat(slices).isNotEmpty();
    assertThat(slices).allSatisfy(s -> assertThat(s.getStatus()).isEqualTo("ACTIVE"));
    assertThat(slices).allSatisfy(s -> assertThat(s.hasStatusTime()).isTrue());

    String doomed = "client_rt_doomed";
    join(
        client
            .controlPlane()
            .createNamespace(TestVarve.timeSeriesNamespace(doomed, "client_rt_ts_data"), once));
    assertThatThrownBy(() -> join(client.controlPlane().deleteNamespace(doomed, "client_rt", once)))
        .isInstanceOf(io.grpc.StatusRuntimeException.class)
        .hasMessageContaining("INVALID_ARGUMENT")
        .hasMessageContaining("confirm_namespace");
    var deleted = join(client.controlPlane().deleteNamespace(doomed, doomed, once));
    assertThat(deleted.getDone()).isTrue();
    assertThat(deleted.getTablesDropped()).isPositive();
    assertThatThrownBy(() -> join(client.controlPlane().getNamespace(doomed, once)))
        .isInstanceOf(io.grpc.StatusRuntimeException.class)
        .hasMessageContaining("NOT_FOUND");
  }

  @Test
  void events_written_with_microsecond_instants_and_no_ids_read_back_once_each_newest_first() {
    // a whole millisecond, to which each event adds 123 µs: its digits never carry into the next
    Instant base = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
    WriteEventRecordsRequest.Builder write = WriteEventRecordsRequest.newBuilder().setNamespace(TS);
    for (int i = 0; i < 250; i++) {
      // microsecond digits, as Instant.now() has them on Linux
      Instant time = base.plus(i, ChronoUnit.MILLIS).plusNanos(123_000);
      write.addEvents(
          Event.newBuilder()
              .setTimeSeriesId("device-1")
              .setEventTime(Times.timestamp(time))
              .addEventItems(
                  EventItem.newBuilder()
                      .setEventItemKey(ByteString.copyFromUtf8("n"))
                      .setEventItemValue(ByteString.copyFromUtf8(Integer.toString(i)))));
    }
    WriteEventRecordsResponse written =
        join(client.timeSeries().writeEventRecordsSync(write.build()));
    assertThat(written.getErrorsList()).isEmpty();
    assertThat(written.getWrittenCount()).isEqualTo(250);

    ReadEventRecordsRequest read =
        ReadEventRecordsRequest.newBuilder()
            .setNamespace(TS)
            .setTimeSeriesId("device-1")
            .setTimeInterval(Times.interval(base.minusSeconds(1), Instant.now().plusSeconds(1)))
            .setPageSize(100)
            .build();
    List<Page<Event>> pages = new ArrayList<>();
    client.timeSeries().readAll(read, Paging.ACCEPT_PARTIAL_PAGES).forEach(pages::add);
    List<Event> events = pages.stream().flatMap(p -> p.items().stream()).toList();
    assertThat(pages).hasSizeGreaterThanOrEqualTo(3);
    assertThat(events).hasSize(250);
    assertThat(events.stream().map(Event::getEventId).collect(Collectors.toSet()))
        .hasSize(250)
        .allSatisfy(id -> assertThat(id).hasSize(36));
    List<String> values =
        events.stream().map(e -> e.getEventItems(0).getEventItemValue().toStringUtf8()).toList();
    assertThat(values)
        .containsExactlyElementsOf(
            IntStream.iterate(249, i -> i - 1).limit(250).mapToObj(Integer::toString).toList());
    // stored at the millisecond: the microseconds are truncated
    assertThat(Times.instant(events.get(0).getEventTime()))
        .isEqualTo(base.plus(249, ChronoUnit.MILLIS));
    assertThat(client.timeSeries().readAll(read, Paging.COMPLETE_PAGES).items().count())
        .isEqualTo(250);
  }

  @Test
  void items_put_got_mutated_and_scanned_come_back_as_written_large_values_included() {
    byte[] large = compressible(100 * 1024);
    join(
        client
            .keyValue()
            .putItems(
                PutItemsRequest.newBuilder()
                    .setNamespace(KV)
                    .setId("profile-1")
                    .addItems(item("small", "ada".getBytes(StandardCharsets.UTF_8)))
                    .addItems(item("large", large))
                    .build()));
    GetItemsResponse got =
        join(
            client
                .keyValue()
                .getItems(
                    GetItemsRequest.newBuilder().setNamespace(KV).setId("profile-1").build()));
    assertThat(got.getItemsList())
        .extracting(i -> i.getKey().toStringUtf8())
        .containsExactly("large", "small");
    assertThat(got.getItems(0).getValue().toByteArray()).isEqualTo(large);
    assertThat(got.getItems(0).getMetadata().getCompression()).isEmpty();
    assertThat(got.getItems(1).getValue().toStringUtf8()).isEqualTo("ada");

    join(
        client
            .keyValue()
            .mutateItems(
                MutateItemsRequest.newBuilder()
                    .setNamespace(KV)
                    .addMutations(
                        Mutation.newBuilder()
                            .setId("profile-1")
                            .setDelete(
                                DeleteOperation.newBuilder()
                                    .setPredicate(
                                        Predicate.newBuilder()
                                            .setMatchKeys(
                                                MatchKeys.newBuilder()
                                                    .addKeys(ByteString.copyFromUtf8("small"))))))
                    .addMutations(
                        Mutation.newBuilder()
                            .setId("profile-2")
                            .setPut(PutOperation.newBuilder().addItems(item("x", large))))
                    .build(),
                CallSettings.defaults()));
    Set<String> scanned = new HashSet<>();
    List<ScannedItem> all = new ArrayList<>();
    for (int segment = 0; segment < 4; segment++) {
      client
          .keyValue()
          .scanAll(
              ScanItemsRequest.newBuilder()
                  .setNamespace(KV)
                  .setSegment(segment)
                  .setTotalSegments(4)
                  .setSelection(Selection.newBuilder().setPageSizeBytes(1024))
                  .build(),
              Paging.ACCEPT_PARTIAL_PAGES)
          .items()
          .filter(s -> s.getId().startsWith("profile-"))
          .forEach(all::add);
    }
    all.forEach(s -> scanned.add(s.getId() + "/" + s.getItem().getKey().toStringUtf8()));
    assertThat(all).hasSize(2);
    assertThat(scanned).containsExactlyInAnyOrder("profile-1/large", "profile-2/x");
    assertThat(all)
        .allSatisfy(s -> assertThat(s.getItem().getValue().toByteArray()).isEqualTo(large));
  }

  @Test
  void a_64_mib_value_goes_in_parts_under_4_mib_and_reads_back_byte_exact() {
    byte[] large = new byte[64 * 1024 * 1024];
    new java.util.Random(64).nextBytes(large);
    PutItemsResponse put =
        join(
            client
                .keyValue()
                .putItems(
                    PutItemsRequest.newBuilder()
                        .setNamespace(KV)
                        .setId("parts")
                        .addItems(item("large", large))
                        .addItems(item("small", "beside".getBytes(StandardCharsets.UTF_8)))
                        .build()));
    // staged in 64 parts of 1 MiB (the server's part size), committed with the small item
    assertThat(put.getChunkCount()).isEqualTo(64);
    assertThat(put.getItemCount()).isEqualTo(2);
    // read back through the client too: in parts, put together
    GetItemsResponse got =
        join(
            client
                .keyValue()
                .getItems(
                    GetItemsRequest.newBuilder()
                        .setNamespace(KV)
                        .setId("parts")
                        .setSelection(Selection.newBuilder().setPageSizeBytes(1))
                        .build()));
    assertThat(got.getItems(0).getKey().toStringUtf8()).isEqualTo("large");
    assertThat(java.util.Arrays.equals(got.getItems(0).getValue().toByteArray(), large)).isTrue();
  }

  @Test
  void a_value_above_the_threshold_travels_and_is_stored_compressed_by_the_client() {
    // below the server's own compression threshold (4 KiB): only the client compresses it
    byte[] value = compressible(3000);
    join(
        client
            .keyValue()
            .putItems(
                PutItemsRequest.newBuilder()
                    .setNamespace(KV)
                    .setId("compressed")
                    .addItems(item("v", value))
                    .build()));
    GetItemsResponse raw =
        GrpcClients.newClient("http://" + varve.endpoint(), KeyValueGrpc.KeyValueBlockingStub.class)
            .getItems(
                GetItemsRequest.newBuilder()
                    .setNamespace(KV)
                    .setId("compressed")
                    .putSignals(
                        "compression",
                        Struct.newBuilder()
                            .putFields("zstd", Value.newBuilder().setBoolValue(true).build())
                            .build())
                    .build());
    assertThat(raw.getItems(0).getMetadata().getCompression()).isEqualTo("zstd");
    assertThat(raw.getItems(0).getValue().size()).isLessThan(value.length / 2);
    GetItemsResponse viaClient =
        join(
            client
                .keyValue()
                .getItems(
                    GetItemsRequest.newBuilder().setNamespace(KV).setId("compressed").build()));
    assertThat(viaClient.getItems(0).getValue().toByteArray()).isEqualTo(value);
  }

  @Test
  void a_record_read_in_small_pages_returns_every_item_once_in_order() {
    PutItemsRequest.Builder put = PutItemsRequest.newBuilder().setNamespace(KV).setId("paged");
    for (int i = 0; i < 300; i++) {
      put.addItems(
          item(String.format("k%04d", i), ("value-" + i).getBytes(StandardCharsets.UTF_8)));
    }
    join(client.keyValue().putItems(put.build()));
    GetItemsRequest get =
        GetItemsRequest.newBuilder()
            .setNamespace(KV)
            .setId("paged")
            .setSelection(Selection.newBuilder().setPageSizeBytes(200))
            .build();
    List<Page<Item>> pages = new ArrayList<>();
    client.keyValue().getAll(get, Paging.COMPLETE_PAGES).forEach(pages::add);
    assertThat(pages).hasSizeGreaterThan(10);
    assertThat(pages.stream().flatMap(p -> p.items().stream()).map(i -> i.getKey().toStringUtf8()))
        .containsExactlyElementsOf(
            IntStream.range(0, 300).mapToObj(i -> String.format("k%04d", i)).toList());
    assertThat(pages.get(pages.size() - 1).hasNext()).isFalse();
  }

  @Test
  void the_handshake_gives_the_namespace_objectives_and_a_time_series_namespace_gets_defaults() {
    var handshake = join(client.keyValue().handshake(KV));
    assertThat(handshake.getService()).isEqualTo("KEY_VALUE");
    assertThat(handshake.getSlosMap().get("GetItems").getLatency().getTarget().getSeconds())
        .isEqualTo(1);
    assertThat(handshake.getCapabilities().getCompressedValues()).isTrue();
    long before = client.counters().calls();
    // a TimeSeries call works whether or not the server answers a TimeSeries handshake
    join(
        client
            .timeSeries()
            .readEventRecords(
                ReadEventRecordsRequest.newBuilder()
                    .setNamespace(TS)
                    .setTimeSeriesId("nobody")
                    .setTimeInterval(Times.interval(Instant.now().minusSeconds(10), Instant.now()))
                    .build()));
    assertThat(client.counters().calls()).isEqualTo(before + 1);
    // the first KeyValue call of the namespace made the client's own handshake
    join(
        client
            .keyValue()
            .getItems(GetItemsRequest.newBuilder().setNamespace(KV).setId("nobody").build()));
    assertThat(client.counters().handshakes()).isGreaterThanOrEqualTo(1);
  }

  static Item item(String key, byte[] value) {
    return Item.newBuilder()
        .setKey(ByteString.copyFromUtf8(key))
        .setValue(ByteString.copyFrom(value))
        .build();
  }

  /** Text-like bytes that zstd compresses well. */
  static byte[] compressible(int size) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < size; i++) {
      text.append("event ").append(i % 97).append(" of the device; ");
    }
    return text.substring(0, size).getBytes(StandardCharsets.UTF_8);
  }
}
