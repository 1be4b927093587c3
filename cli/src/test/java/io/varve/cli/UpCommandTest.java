package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code varve up}'s options: which local servers it starts and what it gives the server. Starts
 * nothing.
 */
class UpCommandTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();

  @Test
  void starts_opensearch_before_cassandra_and_gives_it_to_the_server() {
    UpCommand up = CommandLine.populateCommand(new UpCommand());
    assertThat(up.nodes()).extracting(LocalNode::name).containsExactly("opensearch", "cassandra");
    assertThat(up.nodes().get(0).address()).isEqualTo("http://127.0.0.1:9200");
    assertThat(String.join(" ", up.serverArgs()))
        .isEqualTo("--port 8080 --cassandra 127.0.0.1:9042 --opensearch http://127.0.0.1:9200");
  }

  @Test
  void the_opensearch_port_reaches_the_node_and_the_server() {
    UpCommand up =
        CommandLine.populateCommand(new UpCommand(), "--opensearch-port", "9201", "--port", "8081");
    assertThat(up.nodes().get(0).address()).isEqualTo("http://127.0.0.1:9201");
    assertThat(up.serverArgs())
        .containsSubsequence("--port", "8081")
        .containsSubsequence("--opensearch", "http://127.0.0.1:9201");
  }

  @Test
  void no_opensearch_starts_cassandra_alone_and_the_server_without_index_store() {
    UpCommand up =
        CommandLine.populateCommand(new UpCommand(), "--no-opensearch", "--config", "varve.yaml");
    assertThat(up.nodes()).extracting(LocalNode::name).containsExactly("cassandra");
    assertThat(up.serverArgs())
        .doesNotContain("--opensearch")
        .containsSubsequence("--config", "varve.yaml");
  }

  /** A checkout without OpenSearch built: the same early failure as a machine without a JDK 21+. */
  @Test
  void when_opensearch_cannot_start_nothing_starts_and_the_message_names_no_opensearch(
      @TempDir Path home) {
    System.setProperty(VarveHome.PROPERTY, home.toString());
    try {
      assertThat(VarveCli.run("up")).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    } finally {
      System.clearProperty(VarveHome.PROPERTY);
    }
    assertThat(streams.err())
        .contains("OpenSearch is not built")
        .contains("./varve up --no-opensearch");
    assertThat(home.resolve(".varve/cassandra")).doesNotExist();
    assertThat(home.resolve(".varve/server")).doesNotExist();
  }

  @Test
  void nodes_start_a_cluster_seed_first_and_give_the_server_a_configuration_with_replication_3() {
    UpCommand up = CommandLine.populateCommand(new UpCommand(), "--nodes", "3", "--no-opensearch");

    assertThat(up.nodes())
        .extracting(LocalNode::name)
        .containsExactly("cassandra node1", "cassandra node2", "cassandra node3");
    assertThat(up.nodes())
        .extracting(LocalNode::address)
        .containsExactly("127.0.0.1:9042", "127.0.0.2:9042", "127.0.0.3:9042");
    assertThat(up.serverArgs()).doesNotContain("--cassandra").contains("--config");
    assertThat(up.serverArgs().get(up.serverArgs().size() - 1)).endsWith(".varve/server/up.yaml");
    assertThat(UpServerConfig.yaml(Instances.cluster(9042, 3)).lines())
        .contains(
            "  contactPoints: [\"127.0.0.1:9042\", \"127.0.0.2:9042\", \"127.0.0.3:9042\"]",
            "  localDatacenter: datacenter1",
            "  replication: {class: SimpleStrategy, replication_factor: 3}");
  }

  @Test
  void nodes_with_a_config_file_of_the_users_is_refused_before_anything_starts() {
    assertThat(VarveCli.run("up", "--nodes", "3", "--config", "varve.yaml"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err()).contains("--config cannot be combined with --nodes");
  }
}
