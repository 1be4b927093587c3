package io.varve.verify.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.testing.TestCassandraCluster;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * One node of three lost under a server whose keyspaces have replication factor 3, given through
 * its configuration file as an operator would: LOCAL_QUORUM writes and reads of the TimeSeries
 * service (WriteEventRecordsSync, ReadEventRecords) and the KeyValue service (PutItems, GetItems)
 * keep succeeding while a node is SIGKILLed, and once it returns, what was acknowledged is all
 * there, also when the quorum that answers must include the node that was down (another one is then
 * killed). The nodes run {@code commitlog_sync: batch}: an acknowledged write was fsynced on each
 * replica that acknowledged it.
 *
 * <p>Slow by nature (about 56 s, and the cluster's start when it is the first to use it): a node is
 * killed and started again, and the test waits for it to serve a quorum. So it is not in {@code
 * ./varve test} but in {@code ./varve test faults}, which sets {@value #ENABLED}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeLossIT {

  /** The system property that runs this test. */
  static final String ENABLED = "varve.test.faults";

  static final String METADATA = "verify_node_loss_it";
  static final String RUN = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
  static final String EVENTS = "node_loss_ts_" + RUN;
  static final String ITEMS = "node_loss_kv_" + RUN;
  static final int ROUNDS_PER_PHASE = 20;
  static final Duration RESTART_TIMEOUT = Duration.ofMinutes(4);

  @TempDir static Path config;
  static LocalCassandraCluster cluster;
  static VarveServer server;
  static ClusterApi api;
  static final List<String> writtenEvents = new ArrayList<>();
  static final List<String> writtenItems = new ArrayList<>();
  static final List<String> phases = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Boolean.getBoolean(ENABLED), "-D" + ENABLED + "=true runs it");
    cluster = TestCassandraCluster.get();
    Path file = config.resolve("varve.yaml");
    Files.writeString(
        file,
        "server:\n  host: 127.0.0.1\ncassandra:\n  contactPoints: ["
            + cluster.contactPoints().stream()
                .map(a -> "\"" + a.getHostString() + ":" + a.getPort() + "\"")
                .collect(Collectors.joining(", "))
            + "]\n  localDatacenter: "
            + TestCassandraCluster.localDatacenter()
            + "\n  metadataKeyspace: "
            + METADATA
            + "\n  replication: {class: SimpleStrategy, replication_factor: 3}\n");
    server =
        VarveServer.start(
            ServerSettings.load(file).toBuilder()
                .port(0)
                .shutdown(ServerSettings.Shutdown.AT_ONCE)
                .build());
    api = new ClusterApi("127.0.0.1:" + server.port());
    assertThat(api.createTimeSeries(EVENTS).ok()).isTrue();
    assertThat(api.createKeyValue(ITEMS).ok()).isTrue();
  }

  @AfterAll
  static void stop() {
    // node 2 is left down: the next TestCassandraCluster.get() starts it again
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  @Order(1)
  void the_keyspaces_the_server_creates_have_three_replicas() {
    try (CqlSession cql =
        CqlSession.builder()
            .addContactPoints(cluster.contactPoints())
            .withLocalDatacenter(TestCassandraCluster.localDatacenter())
            .build()) {
      assertThat(cql.getMetadata().getNodes()).hasSize(3);
      for (String keyspace : List.of(METADATA, EVENTS, ITEMS)) {
        assertThat(
                cql.execute(
                        "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?",
                        keyspace)
                    .one()
                    .getMap("replication", String.class, String.class))
            .as(keyspace)
            .containsEntry("replication_factor", "3");
      }
    }
  }

  @Test
  @Order(2)
  void writes_and_reads_of_both_services_keep_succeeding_with_a_node_killed() throws Exception {
    List<ClusterApi.Call<?>> failures = new ArrayList<>();
    write("all-up", failures);
    assertThat(failures).as("writes with three nodes up").isEmpty();

    assertThat(cluster.node(3).kill()).isTrue();
    write("node3-down", failures);
    assertThat(failures).as("writes with node 3 killed").isEmpty();
    readBack(failures);
  }

  @Test
  @Order(3)
  void nothing_acknowledged_is_lost_once_the_node_returns_and_serves_a_quorum() throws Exception {
    cluster.start(RESTART_TIMEOUT);
    // a node answering CQL is not yet alive to the others' gossip, which sends it no writes until
    // then: start waits for that too, or killing node 2 next could leave node 1 alone in a quorum
    String node3 = cluster.node(3).settings().address();
    assertThat(cluster.liveNodesSeenBy(1)).as("node 1's view").contains(node3);
    assertThat(cluster.liveNodesSeenBy(2)).as("node 2's view").contains(node3);
    // with node 2 down, every quorum holds node 3: what it missed must come from its commit log,
    // hints or node 1, and what it acknowledged before its kill from its own disk
    assertThat(cluster.node(2).kill()).isTrue();
    List<ClusterApi.Call<?>> failures = new ArrayList<>();
    write("node2-down", failures);
    assertThat(failures).as("writes with node 3 back and node 2 killed").isEmpty();
    readBack(failures);
  }

  /** A phase's writes: a batch of events and an item per round, all of which must succeed. */
  private static void write(String phase, List<ClusterApi.Call<?>> failures) {
    phases.add(phase);
    Instant time = Instant.now().minus(10, ChronoUnit.MINUTES);
    for (int round = 0; round < ROUNDS_PER_PHASE; round++) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        ids.add(UUID.randomUUID().toString());
      }
      ClusterApi.Call<WriteEventRecordsResponse> events =
          api.writeEvents(EVENTS, "series-" + phase, time.plusSeconds(round), ids);
      if (events.ok() && events.answer().getWrittenIndexesCount() == ids.size()) {
        writtenEvents.addAll(ids.stream().map(id -> phase + "/" + id).toList());
      } else {
        failures.add(events);
      }
      String key = phase + "-" + round;
      ClusterApi.Call<PutItemsResponse> item = api.putItem(ITEMS, "record-" + phase, key);
      if (item.ok()) {
        writtenItems.add(phase + "/" + key);
      } else {
        failures.add(item);
      }
    }
  }

  /** Reads back every acknowledged event and item; each must be there. */
  private static void readBack(List<ClusterApi.Call<?>> failures) {
    List<String> events = new ArrayList<>();
    List<String> items = new ArrayList<>();
    for (String phase : phases) {
      List<String> ids = api.readEventIds(EVENTS, "series-" + phase, failures);
      if (ids != null) {
        ids.forEach(id -> events.add(phase + "/" + id));
      }
      List<String> keys = api.readItemKeys(ITEMS, "record-" + phase, failures);
      if (keys != null) {
        keys.forEach(key -> items.add(phase + "/" + key));
      }
    }
    assertThat(failures).as("calls that failed").isEmpty();
    assertThat(events).as("events read back").containsExactlyInAnyOrderElementsOf(writtenEvents);
    assertThat(items).as("items read back").containsExactlyInAnyOrderElementsOf(writtenItems);
  }
}
