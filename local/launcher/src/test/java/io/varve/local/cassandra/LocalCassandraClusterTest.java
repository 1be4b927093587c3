package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LocalCassandraClusterTest {

  private static final Path VARVE = Path.of("/work/varve");

  @Test
  void nodes_listen_on_their_own_loopback_address_with_the_same_cql_and_storage_ports() {
    LocalCassandraCluster cluster = LocalCassandraCluster.forTests(VARVE, 3);

    assertThat(cluster.contactPoints())
        .containsExactly(
            new InetSocketAddress("127.0.0.1", 23042),
            new InetSocketAddress("127.0.0.2", 23042),
            new InetSocketAddress("127.0.0.3", 23042));
    assertThat(cluster.nodes())
        .allSatisfy(node -> assertThat(node.settings().storagePort()).isEqualTo(23000))
        .allSatisfy(node -> assertThat(node.settings().seed()).isEqualTo("127.0.0.1"))
        .allSatisfy(node -> assertThat(node.settings().heapSize()).isEqualTo("512m"));
  }

  @Test
  void each_node_has_its_own_home_and_jmx_port_as_local_jmx_is_bound_to_127_0_0_1() {
    LocalCassandraCluster cluster = LocalCassandraCluster.forDevelopment(VARVE, 3);

    assertThat(cluster.nodes())
        .extracting(node -> node.settings().home())
        .containsExactly(
            VARVE.resolve(".varve/cassandra-cluster/node1"),
            VARVE.resolve(".varve/cassandra-cluster/node2"),
            VARVE.resolve(".varve/cassandra-cluster/node3"));
    assertThat(cluster.nodes())
        .extracting(node -> node.settings().jmxPort())
        .containsExactly(7199, 7200, 7201);
  }

  @Test
  void any_node_of_a_cluster_gives_back_the_whole_cluster() {
    LocalCassandraCluster cluster = LocalCassandraCluster.forTests(VARVE, 3);

    for (int n = 1; n <= 3; n++) {
      LocalCassandraCluster again =
          LocalCassandraCluster.containing(cluster.node(n).settings(), n, 3);
      assertThat(again.nodes())
          .extracting(LocalCassandra::settings)
          .as("from node " + n)
          .containsExactlyElementsOf(
              cluster.nodes().stream().map(LocalCassandra::settings).toList());
    }
  }

  @Test
  void every_node_names_the_first_as_its_seed_in_its_cassandra_yaml() {
    LocalCassandraCluster cluster = LocalCassandraCluster.forTests(VARVE, 3);

    String yaml = CassandraConfigWriter.cassandraYaml(cluster.node(2).settings());

    assertThat(yaml.lines())
        .contains(
            "      - seeds: '127.0.0.1:23000'",
            "listen_address: 127.0.0.2",
            "rpc_address: 127.0.0.2",
            "num_tokens: 16");
  }

  @Test
  void one_node_is_the_single_development_node_and_replication_follows_the_size() {
    assertThat(LocalCassandraCluster.forDevelopment(VARVE, 1).node(1).settings())
        .isEqualTo(LocalCassandraSettings.forDevelopment(VARVE));
    assertThat(LocalCassandraCluster.forDevelopment(VARVE, 1).replicationFactor()).isEqualTo(1);
    assertThat(LocalCassandraCluster.forTests(VARVE, 2).replicationFactor()).isEqualTo(2);
    assertThat(LocalCassandraCluster.forTests(VARVE, 5).replicationFactor()).isEqualTo(3);
  }

  @Test
  void sizes_and_node_numbers_out_of_range_are_refused() {
    assertThatThrownBy(() -> LocalCassandraCluster.forTests(VARVE, 0))
        .hasMessage("nodes: 0 (expected: 1..9)");
    assertThatThrownBy(() -> LocalCassandraCluster.forTests(VARVE, 3).node(4))
        .hasMessage("node: 4 (expected: 1..3)");
  }

  @Test
  void a_node_address_outside_the_loopback_range_is_refused() {
    LocalCassandraSettings node = LocalCassandraSettings.forTests(VARVE);

    assertThatThrownBy(() -> node.toBuilder().address("10.0.0.2", "127.0.0.1").build())
        .hasMessageStartingWith("address: 10.0.0.2 (expected: a loopback address");
    assertThatThrownBy(() -> node.toBuilder().address("127.0.0.2", "127.0.0.256").build())
        .hasMessageStartingWith("seed: 127.0.0.256");
  }
}
