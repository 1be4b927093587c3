package io.varve.cassandra.events;

import static io.varve.cassandra.events.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.varve.cassandra.TestSessions;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import io.varve.local.testing.TestCassandra;
import io.varve.packing.Batch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replica packing on the driver's real token map of the test Cassandra: one node holds every token,
 * so every partition has the same replicas and small parts of one table are packed together, up to
 * the bounds in partitions and bytes that keep a packed batch under Cassandra's warnings.
 */
class ReplicaPackingIT {

  static final String KEYSPACE = "cassandra_packing_it";
  static CqlSession session;

  @BeforeAll
  static void open() {
    session = TestSessions.open();
    TestSessions.freshKeyspace(session, KEYSPACE);
    session.refreshSchema();
  }

  @AfterAll
  static void close() {
    session.close();
  }

  /** One partition's share of a batch: {@code events} events of {@code valueBytes} bytes each. */
  static ReplicaPacking.Part part(String table, String series, int events, int valueBytes) {
    PartitionKey key = new PartitionKey(table, series, 1_709_856_000_000L, 0);
    List<PlacedEvent> placed = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      placed.add(
          new PlacedEvent(
              i, event(series, 1_709_856_000_000L + i, "e" + i, "k", "v".repeat(valueBytes)), key));
    }
    return ReplicaPacking.Part.of(key, placed);
  }

  static List<ReplicaPacking.Part> parts(String table, int count, int valueBytes) {
    List<ReplicaPacking.Part> parts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      parts.add(part(table, "series-" + i, 1, valueBytes));
    }
    return parts;
  }

  /** The parts of each batch {@link ReplicaPacking#pack} makes on the test session. */
  static List<List<ReplicaPacking.Part>> pack(List<ReplicaPacking.Part> parts) {
    return ReplicaPacking.pack(session, KEYSPACE, parts).stream().map(Batch::items).toList();
  }

  @Test
  void the_token_map_gives_every_partition_the_one_node_as_replica() {
    TokenMap tokens = session.getMetadata().getTokenMap().orElseThrow();
    ReplicaPacking.Part part = part("t_a", "series-0", 1, 10);

    assertThat(
            tokens.getReplicas(
                CqlIdentifier.fromInternal(KEYSPACE),
                tokens.newToken(
                    part.series().duplicate(),
                    part.timeBucket().duplicate(),
                    part.eventBucket().duplicate())))
        .containsExactlyInAnyOrderElementsOf(session.getMetadata().getNodes().values());
  }

  @Test
  void small_parts_of_one_table_are_packed_at_most_ten_to_a_batch() {
    List<ReplicaPacking.Part> parts = parts("t_a", 25, 10);

    List<List<ReplicaPacking.Part>> batches = pack(parts);

    assertThat(batches).extracting(List::size).containsExactly(10, 10, 5);
    List<ReplicaPacking.Part> all = batches.stream().flatMap(List::stream).toList();
    assertThat(all).containsExactlyElementsOf(parts);
  }

  @Test
  void a_packed_batch_stays_within_the_byte_bound() {
    List<ReplicaPacking.Part> parts = parts("t_a", 12, 900);

    List<Batch<ReplicaPacking.Part>> batches = ReplicaPacking.pack(session, KEYSPACE, parts);

    assertThat(batches)
        .hasSizeGreaterThan(2)
        .allSatisfy(
            batch ->
                assertThat(batch.bytes())
                    .isEqualTo(batch.items().stream().mapToLong(ReplicaPacking::bytes).sum())
                    .isLessThanOrEqualTo(ReplicaPacking.MAX_PACKED_BYTES));
    assertThat(batches.stream().mapToInt(b -> b.items().size()).sum()).isEqualTo(12);
  }

  @Test
  void parts_of_other_tables_and_parts_over_the_byte_bound_go_in_batches_of_their_own() {
    List<ReplicaPacking.Part> parts = new ArrayList<>(parts("t_a", 3, 10));
    parts.addAll(parts("t_b", 3, 10));
    ReplicaPacking.Part large = part("t_a", "large", 3, 2000);
    parts.add(large);

    List<List<ReplicaPacking.Part>> batches = pack(parts);

    assertThat(batches).containsExactly(List.of(large), parts.subList(0, 3), parts.subList(3, 6));
    assertThat(batches)
        .allSatisfy(
            batch ->
                assertThat(new HashSet<>(batch.stream().map(p -> p.key().table()).toList()))
                    .hasSize(1));
  }

  @Test
  void without_a_token_map_every_part_goes_alone() {
    DriverConfigLoader noTokenMap =
        DriverConfigLoader.programmaticBuilder()
            .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, false)
            .build();
    try (CqlSession plain =
        CqlSession.builder()
            .addContactPoint(TestCassandra.contactPoint())
            .withLocalDatacenter(TestCassandra.localDatacenter())
            .withConfigLoader(noTokenMap)
            .build()) {
      assertThat(plain.getMetadata().getTokenMap()).isEmpty();

      assertThat(ReplicaPacking.pack(plain, KEYSPACE, parts("t_a", 5, 10)))
          .extracting(b -> b.items().size())
          .containsExactly(1, 1, 1, 1, 1);
    }
  }
}
