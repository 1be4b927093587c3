package io.varve.cassandra.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.varve.local.testing.TestCassandraCluster;
import io.varve.packing.Batch;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replica packing on the token map of a real three-node cluster (the tests' {@code
 * TestCassandraCluster}), where partitions have three replicas, and, with replication factor 2,
 * replica sets that differ between partitions: a packed batch only ever holds partitions whose
 * replicas are the same, so the coordinator the driver picks is a replica of all of them.
 *
 * <p>About 50 s, nearly all of it starting the tests' three nodes one after another (a node joins
 * only once the one before it is up).
 */
class ClusterReplicaPackingIT {

  static final String RF3 = "cassandra_cluster_packing_rf3";
  static final String RF2 = "cassandra_cluster_packing_rf2";
  static CqlSession session;

  @BeforeAll
  static void open() {
    session =
        CqlSession.builder()
            .addContactPoints(TestCassandraCluster.get().contactPoints())
            .withLocalDatacenter(TestCassandraCluster.localDatacenter())
            .build();
    for (String keyspace : List.of(RF3, RF2)) {
      session.execute(
          SimpleStatement.newInstance(
                  "CREATE KEYSPACE IF NOT EXISTS "
                      + keyspace
                      + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
                      + (keyspace.equals(RF3) ? 3 : 2)
                      + "}")
              .setTimeout(Duration.ofSeconds(60)));
    }
    session.refreshSchema();
  }

  @AfterAll
  static void close() {
    if (session != null) {
      session.close();
    }
  }

  static Set<Node> replicas(String keyspace, ReplicaPacking.Part part) {
    TokenMap tokens = session.getMetadata().getTokenMap().orElseThrow();
    return tokens.getReplicas(
        CqlIdentifier.fromInternal(keyspace),
        tokens.newToken(
            part.series().duplicate(),
            part.timeBucket().duplicate(),
            part.eventBucket().duplicate()));
  }

  @Test
  void with_three_replicas_every_partition_has_all_three_nodes_and_parts_pack_ten_to_a_batch() {
    List<ReplicaPacking.Part> parts = ReplicaPackingIT.parts("t_a", 25, 10);

    List<Batch<ReplicaPacking.Part>> batches = ReplicaPacking.pack(session, RF3, parts);

    assertThat(session.getMetadata().getNodes()).hasSize(3);
    assertThat(parts)
        .allSatisfy(
            part ->
                assertThat(replicas(RF3, part))
                    .containsExactlyInAnyOrderElementsOf(
                        session.getMetadata().getNodes().values()));
    assertThat(batches).extracting(b -> b.items().size()).containsExactly(10, 10, 5);
  }

  @Test
  void with_replica_sets_that_differ_a_batch_holds_only_partitions_of_one_replica_set() {
    List<ReplicaPacking.Part> parts = ReplicaPackingIT.parts("t_a", 60, 10);

    List<Batch<ReplicaPacking.Part>> batches = ReplicaPacking.pack(session, RF2, parts);

    Set<Set<Node>> replicaSets = new HashSet<>();
    for (Batch<ReplicaPacking.Part> batch : batches) {
      Set<Node> first = replicas(RF2, batch.items().get(0));
      assertThat(first).hasSize(2);
      assertThat(batch.items())
          .allSatisfy(part -> assertThat(replicas(RF2, part)).isEqualTo(first));
      replicaSets.add(first);
    }
    assertThat(replicaSets).as("distinct replica sets among 60 partitions").hasSizeGreaterThan(1);
    assertThat(batches.stream().flatMap(b -> b.items().stream()).toList())
        .containsExactlyInAnyOrderElementsOf(parts);
    assertThat(batches).allSatisfy(b -> assertThat(b.items()).hasSizeLessThanOrEqualTo(10));
  }
}
