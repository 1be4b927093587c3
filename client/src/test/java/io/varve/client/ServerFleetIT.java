package io.varve.client;

import static io.varve.client.VarveClient.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.QueueBuffering;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsQueuedResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.local.testing.TestCassandra;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers on one Cassandra and one metadata keyspace, as a fleet behind a load balancer runs
 * them (docs/server-configuration.md, "Several servers"): what one server's control plane does, the
 * other serves; writes, page tokens and fire-and-forget queues cross servers; the point-read cache
 * is stale on the other server for at most its TTL; and a rolling restart (each server stopped
 * gracefully, then started again on its port) under writers and readers using the Java client with
 * both endpoints loses no acknowledged write and fails no call.
 */
class ServerFleetIT {

  static final String METADATA = "varve_client_fleet_it";
  static final String DATASET = "client_fleet_data";
  static final String RUN = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
  static final Duration REFRESH = Duration.ofSeconds(2);
  static final Duration PACE = Duration.ofMillis(5);

  @TempDir static Path config;
  static ServerSettings settings;
  static final VarveServer[] servers = new VarveServer[2];
  static final int[] ports = new int[2];
  static VarveClient a;
  static VarveClient b;
  static VarveClient both;

  @BeforeAll
  static void start() throws Exception {
    InetSocketAddress cassandra = TestCassandra.contactPoint();
    try (CqlSession cql =
        CqlSession.builder()
            .addContactPoint(cassandra)
            .withLocalDatacenter(TestCassandra.localDatacenter())
            .build()) {
      for (String keyspace : List.of(METADATA, DATASET)) {
        cql.execute(
            SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                .setTimeout(Duration.ofSeconds(30)));
      }
    }
    // the namespace refresh at 2 s rather than 30 s, and a graceful stop as operators run it:
    // the server answers until no request came for the quiet period, at most until the timeout
    // (under steady load from clients that do not watch /health, the timeout: requests in flight
    // then fail UNAVAILABLE, which the client retries on the other server), then writes its
    // fire-and-forget queues
    Path file = config.resolve("varve.yaml");
    Files.writeString(
        file,
        "server:\n  shutdown: {quietPeriod: 300ms, timeout: 3s}\n"
            + "timeseries:\n  sliceMaintenanceInterval: "
            + REFRESH.toSeconds()
            + "s\n");
    ServerSettings loaded = ServerSettings.load(file);
    settings =
        loaded.toBuilder()
            .cassandra(
                loaded
                    .cassandra()
                    .withContactPoints(List.of(cassandra))
                    .withMetadataKeyspace(METADATA))
            .build();
    for (int i = 0; i < 2; i++) {
      ports[i] = freePort();
      servers[i] = startServer(i);
    }
    a = VarveClient.builder().endpoints(endpoint(0)).build();
    b = VarveClient.builder().endpoints(endpoint(1)).build();
    both =
        VarveClient.builder()
            .endpoints(endpoint(0), endpoint(1))
            .retries(5, Duration.ofMillis(50), Duration.ofSeconds(1))
            .build();
  }

  @AfterAll
  static void stop() {
    for (VarveClient client : new VarveClient[] {a, b, both}) {
      if (client != null) {
        client.close();
      }
    }
    for (VarveServer server : servers) {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  void
      a_namespace_created_through_one_server_is_served_by_the_other_and_updates_and_deletion_within_the_refresh()
          throws Exception {
    String namespace = "fleet_ctl_" + RUN;
    join(a.controlPlane().createNamespace(timeSeries(namespace, 1 << 20), once()));
    // at once: a server loads a namespace it does not know on its first request
    WriteEventRecordsQueuedResponse queued =
        join(b.timeSeries().writeEventRecords(write(namespace, "s", 1)));
    assertThat(queued.getQueuedCount()).as(queued.toString()).isEqualTo(1);

    Instant updated = Instant.now();
    join(
        a.controlPlane()
            .updateNamespace(
                UpdateNamespaceRequest.newBuilder()
                    .setNamespace(namespace)
                    .addAllPersistenceConfiguration(
                        timeSeries(namespace, 0).getPersistenceConfigurationList())
                    .build(),
                once()));
    // bufferCapacity 0 refuses fire-and-forget writes: the other server does so once it has
    // reloaded the namespace, within its refresh interval
    Duration seen = null;
    while (Duration.between(updated, Instant.now()).compareTo(REFRESH.multipliedBy(3)) < 0) {
      try {
        join(b.timeSeries().writeEventRecords(write(namespace, "s", 1)));
        Thread.sleep(100);
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
        seen = Duration.between(updated, Instant.now());
        break;
      }
    }
    assertThat(seen).as("the update reached the other server").isNotNull();
    assertThat(seen).isLessThanOrEqualTo(REFRESH.plusSeconds(1));

    join(a.controlPlane().deleteNamespace(namespace, namespace, once()));
    Instant deleted = Instant.now();
    // until its next refresh the other server still knows the namespace: its requests fail
    // FAILED_PRECONDITION (the tables are gone); from the refresh on, NOT_FOUND
    Status.Code refused = null;
    List<String> before = new ArrayList<>();
    while (refused != Status.Code.NOT_FOUND
        && Duration.between(deleted, Instant.now()).compareTo(REFRESH.multipliedBy(3)) < 0) {
      try {
        join(b.timeSeries().readEventRecords(read(namespace, "s")));
      } catch (StatusRuntimeException e) {
        refused = e.getStatus().getCode();
        if (refused != Status.Code.NOT_FOUND) {
          before.add(refused + ": " + e.getStatus().getDescription());
        }
      }
      Thread.sleep(100);
    }
    assertThat(refused)
        .as("the other server, once the namespace is deleted")
        .isEqualTo(Status.Code.NOT_FOUND);
    assertThat(Duration.between(deleted, Instant.now()))
        .isLessThanOrEqualTo(REFRESH.plusSeconds(1));
    assertThat(before).allSatisfy(answer -> assertThat(answer).startsWith("FAILED_PRECONDITION"));
    System.out.println("before the refresh: " + before.stream().distinct().toList());
  }

  @Test
  void a_write_through_one_server_reads_through_the_other_and_page_tokens_cross_servers() {
    String namespace = "fleet_pages_" + RUN;
    join(a.controlPlane().createNamespace(timeSeries(namespace, 1 << 20), once()));
    WriteEventRecordsResponse written =
        join(a.timeSeries().writeEventRecordsSync(write(namespace, "device-1", 10)));
    assertThat(written.getWrittenCount()).isEqualTo(10);

    Set<String> read = new HashSet<>();
    ReadEventRecordsRequest first = read(namespace, "device-1").toBuilder().setPageSize(3).build();
    VarveClient[] alternate = {b, a};
    ReadEventRecordsRequest next = first;
    for (int page = 0; ; page++) {
      ReadEventRecordsResponse response =
          join(alternate[page % 2].timeSeries().readEventRecords(next));
      response.getEventsList().forEach(e -> assertThat(read.add(e.getEventId())).isTrue());
      if (response.getNextPageToken().isEmpty()) {
        break;
      }
      assertThat(page).as("pages").isLessThan(10);
      next = first.toBuilder().setPageToken(response.getNextPageToken()).build();
    }
    assertThat(read).hasSize(10);
  }

  @Test
  void fire_and_forget_queues_of_each_server_drain() throws Exception {
    String namespace = "fleet_queues_" + RUN;
    join(a.controlPlane().createNamespace(timeSeries(namespace, 1 << 20), once()));
    WriteEventRecordsQueuedResponse throughA =
        join(a.timeSeries().writeEventRecords(write(namespace, "via-a", 50)));
    WriteEventRecordsQueuedResponse throughB =
        join(b.timeSeries().writeEventRecords(write(namespace, "via-b", 50)));
    assertThat(throughA.getQueuedCount() + throughB.getQueuedCount()).isEqualTo(100);
    Instant deadline = Instant.now().plusSeconds(20);
    int found = 0;
    while (Instant.now().isBefore(deadline)) {
      found = count(both, namespace, "via-a") + count(both, namespace, "via-b");
      if (found == 100) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(found).as("events written from both servers' queues").isEqualTo(100);
  }

  @Test
  void a_point_read_cached_by_one_server_sees_the_others_write_within_the_cache_ttl()
      throws Exception {
    String namespace = "fleet_cache_" + RUN;
    Duration ttl = Duration.ofSeconds(2);
    join(a.controlPlane().createNamespace(cachedKeyValue(namespace, ttl), once()));
    join(a.keyValue().putItems(put(namespace, "r", "k", "v1")));
    assertThat(value(b, namespace, "r", "k")).isEqualTo("v1");
    assertThat(value(b, namespace, "r", "k")).as("from b's cache").isEqualTo("v1");

    join(a.keyValue().putItems(put(namespace, "r", "k", "v2")));
    Instant written = Instant.now();
    String seen = value(b, namespace, "r", "k");
    while (!seen.equals("v2")
        && Duration.between(written, Instant.now()).compareTo(ttl.multipliedBy(3)) < 0) {
      Thread.sleep(50);
      seen = value(b, namespace, "r", "k");
    }
    Duration stale = Duration.between(written, Instant.now());
    assertThat(seen).isEqualTo("v2");
    assertThat(stale).as("the other server's staleness").isLessThanOrEqualTo(ttl.plusMillis(500));
    assertThat(value(a, namespace, "r", "k"))
        .as("the writer's server reads its write")
        .isEqualTo("v2");
  }

  @Test
  void a_rolling_restart_under_load_loses_no_acknowledged_write_and_fails_no_call()
      throws Exception {
    String durable = "fleet_roll_sync_" + RUN;
    String buffered = "fleet_roll_ff_" + RUN;
    String items = "fleet_roll_kv_" + RUN;
    join(a.controlPlane().createNamespace(timeSeries(durable, 1 << 20), once()));
    join(a.controlPlane().createNamespace(timeSeries(buffered, 16 << 20), once()));
    join(a.controlPlane().createNamespace(cachedKeyValue(items, Duration.ofSeconds(1)), once()));

    AtomicBoolean running = new AtomicBoolean(true);
    ConcurrentLinkedQueue<String> acknowledgedEvents = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> acknowledgedBuffered = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> acknowledgedItems = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger reads = new AtomicInteger();
    List<Thread> load = new ArrayList<>();
    CountDownLatch warm = new CountDownLatch(4);
    load.add(
        loop(
            "durable",
            running,
            failures,
            warm,
            n -> {
              WriteEventRecordsRequest request = write(durable, "d", 5);
              WriteEventRecordsResponse response =
                  join(both.timeSeries().writeEventRecordsSync(request));
              assertThat(response.getErrorsList()).isEmpty();
              request.getEventsList().forEach(e -> acknowledgedEvents.add(e.getEventId()));
            }));
    load.add(
        loop(
            "buffered",
            running,
            failures,
            warm,
            n -> {
              WriteEventRecordsRequest request = write(buffered, "f", 5);
              WriteEventRecordsQueuedResponse response =
                  join(both.timeSeries().writeEventRecords(request));
              assertThat(response.getQueuedCount()).isEqualTo(5);
              request.getEventsList().forEach(e -> acknowledgedBuffered.add(e.getEventId()));
            }));
    load.add(
        loop(
            "items",
            running,
            failures,
            warm,
            n -> {
              String key = "k" + n;
              join(both.keyValue().putItems(put(items, "r", key, "v" + n)));
              acknowledgedItems.add(key);
            }));
    load.add(
        loop(
            "reader",
            running,
            failures,
            warm,
            n -> {
              join(both.timeSeries().readEventRecords(read(durable, "d")));
              join(
                  both.keyValue()
                      .getItems(
                          GetItemsRequest.newBuilder().setNamespace(items).setId("r").build()));
              reads.incrementAndGet();
            }));
    load.forEach(Thread::start);
    assertThat(warm.await(30, TimeUnit.SECONDS)).isTrue();
    ClientCounters before = both.counters();

    List<Duration> stops = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Thread.sleep(1500);
      Instant stopping = Instant.now();
      servers[i].close(); // as SIGTERM does: ServeCommand's shutdown hook closes the server
      stops.add(Duration.between(stopping, Instant.now()));
      Thread.sleep(500); // calls meanwhile go to the other server
      servers[i] = startServer(i);
    }
    Thread.sleep(1500);
    running.set(false);
    for (Thread thread : load) {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    }
    ClientCounters during = both.counters().minus(before);
    Instant checking = Instant.now();

    assertThat(failures).as("calls that failed through the restarts").isEmpty();
    assertThat(during.retries()).as("calls retried on the other server").isPositive();
    assertThat(stops)
        .as("each graceful stop, its buffered queues written")
        .allSatisfy(d -> assertThat(d).isLessThan(Duration.ofSeconds(3 + 30 + 5)));
    assertThat(reads.get()).isPositive();

    assertThat(eventIds(both, durable, "d")).containsAll(acknowledgedEvents);
    // the servers running now may still hold the last ones in their queues
    Instant drained = Instant.now().plusSeconds(20);
    Set<String> written = eventIds(both, buffered, "f");
    while (!written.containsAll(acknowledgedBuffered) && Instant.now().isBefore(drained)) {
      Thread.sleep(200);
      written = eventIds(both, buffered, "f");
    }
    assertThat(written)
        .as("fire-and-forget events acknowledged before, during and after the stops")
        .containsAll(acknowledgedBuffered);
    Set<String> keys = new HashSet<>();
    both.keyValue()
        .getAll(
            GetItemsRequest.newBuilder().setNamespace(items).setId("r").build(),
            Paging.COMPLETE_PAGES)
        .items()
        .forEach(item -> keys.add(item.getKey().toStringUtf8()));
    assertThat(keys).containsAll(acknowledgedItems);
    System.out.printf(
        "rolling restart: stops %s, %d calls, %d retried; acknowledged %d durable events, %d"
            + " fire-and-forget events, %d items; checked in %s%n",
        stops,
        during.calls(),
        during.retries(),
        acknowledgedEvents.size(),
        acknowledgedBuffered.size(),
        acknowledgedItems.size(),
        Duration.between(checking, Instant.now()));
    assertThat(acknowledgedEvents).hasSizeGreaterThan(10);
    assertThat(acknowledgedBuffered).hasSizeGreaterThan(10);
    assertThat(acknowledgedItems).hasSizeGreaterThan(10);
  }

  @Test
  void a_stopped_server_refuses_and_the_client_goes_to_the_other() {
    VarveClient onlyA =
        VarveClient.builder()
            .endpoints(endpoint(0))
            .retries(0, Duration.ofMillis(10), Duration.ofMillis(10))
            .build();
    try {
      String namespace = "fleet_down_" + RUN;
      join(a.controlPlane().createNamespace(timeSeries(namespace, 1 << 20), once()));
      servers[0].close();
      assertThatThrownBy(
              () -> join(onlyA.timeSeries().writeEventRecordsSync(write(namespace, "x", 1))))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
      assertThat(
              join(both.timeSeries().writeEventRecordsSync(write(namespace, "x", 1)))
                  .getWrittenCount())
          .isEqualTo(1);
    } finally {
      onlyA.close();
      servers[0] = startServer(0);
    }
  }

  interface Step {
    void run(int n) throws Exception;
  }

  private static Thread loop(
      String name,
      AtomicBoolean running,
      ConcurrentLinkedQueue<Throwable> failures,
      CountDownLatch warm,
      Step step) {
    return new Thread(
        () -> {
          for (int n = 0; running.get(); n++) {
            try {
              step.run(n);
            } catch (Throwable e) {
              failures.add(new AssertionError(name + " call " + n + ": " + e, e));
            }
            if (n == 0) {
              warm.countDown();
            }
            try {
              Thread.sleep(
                  PACE.toMillis()); // a steady load, not a flood: what it wrote is read back
            } catch (InterruptedException e) {
              return;
            }
          }
        },
        "fleet-" + name);
  }

  private static VarveServer startServer(int i) {
    return VarveServer.start(settings.toBuilder().port(ports[i]).build());
  }

  private static String endpoint(int i) {
    return "127.0.0.1:" + ports[i];
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static CallSettings once() {
    return CallSettings.defaults().withDeadline(Duration.ofSeconds(60));
  }

  private static CreateNamespaceRequest timeSeries(String namespace, long bufferCapacity) {
    return CreateNamespaceRequest.newBuilder()
        .setNamespace(namespace)
        .setService("TIME_SERIES")
        .addPersistenceConfiguration(
            PersistenceConfiguration.newBuilder()
                .setId("PRIMARY_STORAGE")
                .setPhysicalStorage(PhysicalStorage.newBuilder().setDataset(DATASET))
                .setConfig(
                    StorageConfig.newBuilder()
                        .setQueueBuffering(
                            QueueBuffering.newBuilder().setBufferCapacity(bufferCapacity))))
        .build();
  }

  private static CreateNamespaceRequest cachedKeyValue(String namespace, Duration ttl) {
    return CreateNamespaceRequest.newBuilder()
        .setNamespace(namespace)
        .setService("KEY_VALUE")
        .addPersistenceConfiguration(
            PersistenceConfiguration.newBuilder()
                .setId("PRIMARY_STORAGE")
                .setPhysicalStorage(PhysicalStorage.newBuilder().setDataset(DATASET)))
        .addPersistenceConfiguration(
            PersistenceConfiguration.newBuilder()
                .setId("CACHE")
                .setPhysicalStorage(PhysicalStorage.newBuilder().setType("CACHE"))
                .setConfig(
                    StorageConfig.newBuilder()
                        .setDefaultCacheTtl(
                            com.google.protobuf.Duration.newBuilder().setSeconds(ttl.toSeconds()))))
        .build();
  }

  private static WriteEventRecordsRequest write(String namespace, String series, int events) {
    WriteEventRecordsRequest.Builder request =
        WriteEventRecordsRequest.newBuilder().setNamespace(namespace);
    Instant now = Instant.now();
    for (int i = 0; i < events; i++) {
      request.addEvents(
          Event.newBuilder()
              .setTimeSeriesId(series)
              .setEventId(UUID.randomUUID().toString())
              .setEventTime(Times.timestamp(now.minusMillis(i)))
              .addEventItems(
                  EventItem.newBuilder()
                      .setEventItemKey(ByteString.copyFromUtf8("n"))
                      .setEventItemValue(ByteString.copyFromUtf8(Integer.toString(i)))));
    }
    return request.build();
  }

  private static ReadEventRecordsRequest read(String namespace, String series) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeSeriesId(series)
        .setTimeInterval(
            Times.interval(Instant.now().minus(Duration.ofHours(1)), Instant.now().plusSeconds(5)))
        .setPageSize(1000)
        .build();
  }

  private static int count(VarveClient client, String namespace, String series) {
    return eventIds(client, namespace, series).size();
  }

  private static Set<String> eventIds(VarveClient client, String namespace, String series) {
    Set<String> ids = new HashSet<>();
    client
        .timeSeries()
        .readAll(read(namespace, series), Paging.ACCEPT_PARTIAL_PAGES)
        .items()
        .forEach(e -> ids.add(e.getEventId()));
    return ids;
  }

  private static PutItemsRequest put(String namespace, String id, String key, String value) {
    return PutItemsRequest.newBuilder()
        .setNamespace(namespace)
        .setId(id)
        .addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFromUtf8(value)))
        .build();
  }

  private static String value(VarveClient client, String namespace, String id, String key) {
    GetItemsResponse response =
        join(
            client
                .keyValue()
                .getItems(
                    GetItemsRequest.newBuilder()
                        .setNamespace(namespace)
                        .setId(id)
                        .setPredicate(
                            io.varve.api.kv.v1.Predicate.newBuilder()
                                .setMatchKeys(
                                    io.varve.api.kv.v1.MatchKeys.newBuilder()
                                        .addKeys(ByteString.copyFromUtf8(key))))
                        .build()));
    assertThat(response.getItemsCount()).isEqualTo(1);
    return response.getItems(0).getValue().toStringUtf8();
  }
}
