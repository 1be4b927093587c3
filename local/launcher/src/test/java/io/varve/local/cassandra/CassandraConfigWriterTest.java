package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassandraConfigWriterTest {

  private static final LocalCassandraSettings NODE =
      LocalCassandraSettings.forDevelopment(Path.of("/v")).toBuilder()
          .home(Path.of("/v/node"))
          .ports(29042, 27000, 27199)
          .build();

  @Test
  void yaml_serves_cql_and_storage_on_the_configured_loopback_ports() {
    String yaml = CassandraConfigWriter.cassandraYaml(NODE);

    assertThat(yaml.lines())
        .contains(
            "native_transport_port: 29042",
            "storage_port: 27000",
            "      - seeds: '127.0.0.1:27000'",
            "listen_address: 127.0.0.1",
            "rpc_address: 127.0.0.1",
            "start_native_transport: true");
  }

  @Test
  void a_node_joining_a_cluster_built_empty_takes_its_tokens_without_a_bootstrap() {
    LocalCassandraSettings second = NODE.toBuilder().address("127.0.0.2", "127.0.0.1").build();

    assertThat(CassandraConfigWriter.cassandraYaml(second, false).lines())
        .contains("auto_bootstrap: false");
    assertThat(CassandraConfigWriter.cassandraYaml(second)).doesNotContain("auto_bootstrap:");
  }

  @Test
  void yaml_keeps_every_directory_under_the_home() {
    String yaml = CassandraConfigWriter.cassandraYaml(NODE);

    assertThat(yaml.lines())
        .contains(
            "  - '/v/node/data'",
            "commitlog_directory: '/v/node/commitlog'",
            "saved_caches_directory: '/v/node/saved_caches'",
            "hints_directory: '/v/node/hints'");
  }

  @Test
  void yaml_fsyncs_each_write_before_acknowledging_it_by_default() {
    String yaml = CassandraConfigWriter.cassandraYaml(NODE);

    assertThat(yaml.lines())
        .contains("commitlog_sync: batch")
        .noneMatch(line -> line.startsWith("commitlog_sync_"));
  }

  @Test
  void yaml_uses_the_group_window_in_cassandra_5_form_when_configured() {
    String yaml =
        CassandraConfigWriter.cassandraYaml(
            NODE.toBuilder().commitlogSync(CommitlogSync.group(Duration.ofMillis(5))).build());

    assertThat(yaml.lines())
        .contains("commitlog_sync: group", "commitlog_sync_group_window: 5ms")
        .doesNotContain("commitlog_sync: batch");
  }

  @Test
  void yaml_names_the_stable_cluster_and_keeps_dropped_tables_out_of_snapshots() {
    String yaml = CassandraConfigWriter.cassandraYaml(NODE);

    assertThat(yaml.lines())
        .contains(
            "cluster_name: 'Varve Local'",
            "auto_snapshot: false",
            "num_tokens: 16",
            "endpoint_snitch: SimpleSnitch");
  }

  @Test
  void yaml_quotes_paths_with_quotes_and_spaces() {
    String yaml =
        CassandraConfigWriter.cassandraYaml(
            NODE.toBuilder().home(Path.of("/v/it's a node")).build());

    assertThat(yaml.lines()).contains("commitlog_directory: '/v/it''s a node/commitlog'");
  }

  @Test
  void logback_writes_system_log_and_nothing_to_the_console() {
    String xml = CassandraConfigWriter.logbackXml(NODE);

    assertThat(xml)
        .contains("<file>/v/node/logs/system.log</file>", "<root level=\"INFO\">")
        .doesNotContain("ConsoleAppender");
  }

  @Test
  void writes_the_nodes_files_and_the_tools_logging_into_conf(@TempDir Path home) throws Exception {
    LocalCassandraSettings settings = NODE.toBuilder().home(home).build();

    CassandraConfigWriter.write(settings);

    assertThat(Files.readString(home.resolve("conf/cassandra.yaml")))
        .isEqualTo(CassandraConfigWriter.cassandraYaml(settings));
    assertThat(Files.readString(home.resolve("conf/logback.xml")))
        .isEqualTo(CassandraConfigWriter.logbackXml(settings));
    assertThat(Files.readString(home.resolve("conf/logback-tools.xml")))
        .contains("<target>System.err</target>")
        .contains("<root level=\"WARN\">");
  }
}
