package io.varve.client;

import static io.varve.client.VarveClient.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hedging, retries and their bounds, on a real server reached directly and through a proxy that
 * delays its answers by {@link #SLOW}: a hedge sent at the objective's target to the direct
 * endpoint answers first.
 */
class HedgingIT {

  static final Duration SLOW = Duration.ofMillis(1500);
  static final String KV = "client_hedge_kv";
  static final String TS = "client_hedge_ts";

  static TestVarve varve;
  static DelayingProxy proxy;

  /** Endpoints: the slowed proxy first, then the server itself. */
  static VarveClient client;

  @BeforeAll
  static void start() throws Exception {
    varve =
        new TestVarve(
            "varve_client_hedge_it",
            "client_hedge_kv_data",
            "client_hedge_ts_data",
            "client_hedge_once_data");
    proxy = new DelayingProxy(varve.server.port());
    client = VarveClient.builder().endpoints(proxy.endpoint(), varve.endpoint()).build();
    CallSettings once = CallSettings.defaults().withDeadline(Duration.ofSeconds(60));
    join(
        client
            .controlPlane()
            .createNamespace(
                TestVarve.keyValueNamespace(
                    KV,
                    "client_hedge_kv_data",
                    "items",
                    Duration.ofMillis(100),
                    Duration.ofSeconds(10)),
                once));
    join(
        client
            .controlPlane()
            .createNamespace(TestVarve.timeSeriesNamespace(TS, "client_hedge_ts_data"), once));
    // connections and handshakes made before the proxy slows down
    for (int i = 0; i < 2; i++) {
      join(client.keyValue().getItems(get("warm-up")));
      join(client.timeSeries().readEventRecords(read("warm-up")));
    }
  }

  @BeforeEach
  void slow() {
    proxy.delay(SLOW);
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    proxy.close();
    varve.close();
  }

  @Test
  void a_busy_client_spreads_its_calls_over_its_connections_to_an_endpoint() throws Exception {
    proxy.delay(Duration.ofMillis(300));
    int before = proxy.connections();
    try (VarveClient busy =
        VarveClient.builder().endpoints(proxy.endpoint()).connectionsPerEndpoint(3).build()) {
      join(busy.timeSeries().readEventRecords(read("busy")));
      List<CompletableFuture<?>> calls = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        calls.add(busy.timeSeries().readEventRecords(read("busy")).toCompletableFuture());
      }
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
    }
    assertThat(proxy.connections() - before)
        .as("calls in flight at once open every connection allowed, and no more")
        .isEqualTo(3);
  }

  @Test
  void reads_slowed_on_one_endpoint_are_answered_by_the_hedge_to_the_other() {
    ClientCounters before = client.counters();
    for (int i = 0; i < 6; i++) {
      long start = System.nanoTime();
      join(client.keyValue().getItems(get("reader")));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SLOW.minusMillis(500));
    }
    // round robin: about half of the calls went to the proxy first, and their hedges won (a
    // background handshake may take one turn)
    ClientCounters during = client.counters().minus(before);
    assertThat(during.hedgesWon()).isGreaterThanOrEqualTo(2);
    assertThat(during.hedgesSent()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void hedged_duplicate_writes_leave_one_copy() throws Exception {
    long won = client.counters().hedgesWon();
    CallSettings hedged = CallSettings.defaults().withHedgeDelay(Duration.ofMillis(100));
    for (int i = 0; i < 4; i++) {
      long start = System.nanoTime();
      // no event id and no token: the client makes them once, and hedges repeat them
      join(
          client
              .timeSeries()
              .writeEventRecordsSync(
                  WriteEventRecordsRequest.newBuilder()
                      .setNamespace(TS)
                      .addEvents(
                          Event.newBuilder()
                              .setTimeSeriesId("dup")
                              .setEventTime(Times.timestamp(Instant.now()))
                              .addEventItems(
                                  EventItem.newBuilder()
                                      .setEventItemKey(ByteString.copyFromUtf8("i"))
                                      .setEventItemValue(ByteString.copyFromUtf8("" + i))))
                      .build(),
                  hedged));
      join(
          client
              .keyValue()
              .putItems(
                  PutItemsRequest.newBuilder()
                      .setNamespace(KV)
                      .setId("dup")
                      .addItems(
                          Item.newBuilder()
                              .setKey(ByteString.copyFromUtf8("k" + i))
                              .setValue(ByteString.copyFromUtf8("v" + i)))
                      .build(),
                  hedged));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SLOW.multipliedBy(2));
    }
    assertThat(client.counters().hedgesWon() - won).isGreaterThanOrEqualTo(2);
    // the slowed requests were applied too, their answers arriving after the hedges'
    Thread.sleep(SLOW.toMillis() + 500);
    proxy.delay(Duration.ZERO);
    ReadEventRecordsResponse events = join(client.timeSeries().readEventRecords(read("dup")));
    assertThat(events.getEventsList())
        .extracting(e -> e.getEventItems(0).getEventItemValue().toStringUtf8())
        .containsExactly("3", "2", "1", "0");
    GetItemsResponse items = join(client.keyValue().getItems(get("dup")));
    assertThat(items.getItemsList())
        .extracting(item -> item.getKey().toStringUtf8() + "=" + item.getValue().toStringUtf8())
        .containsExactly("k0=v0", "k1=v1", "k2=v2", "k3=v3");
  }

  @Test
  void a_non_idempotent_call_is_never_hedged() {
    try (VarveClient slowOnly =
        VarveClient.builder()
            .endpoints(proxy.endpoint())
            .callSettings(CallSettings.defaults().withHedgeDelay(Duration.ofMillis(50)))
            .build()) {
      long start = System.nanoTime();
      join(
          slowOnly
              .controlPlane()
              .createNamespace(
                  TestVarve.timeSeriesNamespace("client_hedge_once", "client_hedge_once_data"),
                  CallSettings.defaults().withDeadline(Duration.ofSeconds(60))));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(SLOW);
      assertThat(slowOnly.counters().hedgesSent()).isZero();
      // the same client hedges an idempotent call (to the one endpoint it has)
      join(slowOnly.keyValue().getItems(get("reader")));
      assertThat(slowOnly.counters().hedgesSent()).isEqualTo(1);
    }
  }

  @Test
  void
      beyond_its_bound_on_calls_in_flight_the_client_queues_refuses_and_never_sends_an_expired_call()
          throws Exception {
    proxy.delay(Duration.ofMillis(800));
    try (VarveClient bounded =
        VarveClient.builder()
            .endpoints(proxy.endpoint())
            .callSettings(CallSettings.defaults().withoutHedging())
            .maxCallsInFlight(2, 1)
            .build()) {
      join(bounded.keyValue().getItems(get("bounded"))); // the handshake and a connection
      ClientCounters before = bounded.counters();
      Duration minute = Duration.ofMinutes(1);
      CompletableFuture<?> first = put(bounded, "k1", minute);
      CompletableFuture<?> second = put(bounded, "k2", minute);
      CompletableFuture<?> waiting = put(bounded, "k3", Duration.ofMillis(300));
      CompletableFuture<?> refused = put(bounded, "k4", minute);

      assertThat(refused).as("two in flight, one waiting: the fourth").isCompletedExceptionally();
      assertThatThrownBy(() -> join(refused))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
      assertThatThrownBy(() -> join(waiting))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
                assertThat(e.getStatus().getDescription()).contains("not sent");
              });
      join(first);
      join(second);
      // the slots are free again: the next call is sent, and a waiting call is sent once a slot is
      long start = System.nanoTime();
      CompletableFuture<?> third = put(bounded, "k5", minute);
      CompletableFuture<?> fourth = put(bounded, "k6", minute);
      CompletableFuture<?> fifth = put(bounded, "k7", minute);
      join(third);
      join(fourth);
      join(fifth);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("the fifth waited for one of the first two to end")
          .isGreaterThanOrEqualTo(Duration.ofMillis(1500));

      ClientCounters during = bounded.counters().minus(before);
      assertThat(during.calls()).isEqualTo(7);
      assertThat(during.throttled()).isEqualTo(1);
      proxy.delay(Duration.ZERO);
      assertThat(join(bounded.keyValue().getItems(get("bounded"))).getItemsList())
          .as("what was refused or expired waiting was never written")
          .extracting(item -> item.getKey().toStringUtf8())
          .containsExactly("k1", "k2", "k5", "k6", "k7");
    }
  }

  static CompletableFuture<?> put(VarveClient varve, String key, Duration deadline) {
    return varve
        .keyValue()
        .putItems(
            PutItemsRequest.newBuilder()
                .setNamespace(KV)
                .setId("bounded")
                .addItems(
                    Item.newBuilder()
                        .setKey(ByteString.copyFromUtf8(key))
                        .setValue(ByteString.copyFromUtf8("v")))
                .build(),
            CallSettings.defaults().withDeadline(deadline))
        .toCompletableFuture();
  }

  @Test
  void a_call_that_is_not_answered_gives_up_at_its_deadline() {
    try (VarveClient slowOnly = VarveClient.builder().endpoints(proxy.endpoint()).build()) {
      long start = System.nanoTime();
      assertThatThrownBy(
              () ->
                  join(
                      slowOnly
                          .controlPlane()
                          .getNamespace(
                              KV, CallSettings.defaults().withDeadline(Duration.ofMillis(300)))))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(SLOW);
      assertThat(slowOnly.counters().retries()).isZero();
    }
  }

  @Test
  void retries_stop_at_the_bound_and_invalid_requests_are_not_retried() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    try (VarveClient nowhere =
        VarveClient.builder()
            .endpoints("127.0.0.1:" + closedPort)
            .retries(2, Duration.ofMillis(10), Duration.ofMillis(50))
            .build()) {
      assertThatThrownBy(
              () -> join(nowhere.controlPlane().getNamespace(TS, CallSettings.defaults())))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
      assertThat(nowhere.counters().retries()).isEqualTo(2);
      assertThat(nowhere.counters().calls()).isEqualTo(1);
    }
    proxy.delay(Duration.ZERO);
    long retries = client.counters().retries();
    assertThatThrownBy(
            () ->
                join(
                    client
                        .keyValue()
                        .getItems(GetItemsRequest.newBuilder().setNamespace(KV).setId("").build())))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    assertThat(client.counters().retries()).isEqualTo(retries);
  }

  static GetItemsRequest get(String id) {
    return GetItemsRequest.newBuilder().setNamespace(KV).setId(id).build();
  }

  static ReadEventRecordsRequest read(String series) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(TS)
        .setTimeSeriesId(series)
        .setTimeInterval(
            Times.interval(Instant.now().minusSeconds(600), Instant.now().plusSeconds(5)))
        .build();
  }
}
