package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocalCassandraSettingsTest {

  private static final Path VARVE = Path.of("/work/varve");

  @Test
  void development_instance_uses_standard_ports_under_dot_varve() {
    LocalCassandraSettings dev = LocalCassandraSettings.forDevelopment(VARVE);

    assertThat(dev.home()).isEqualTo(Path.of("/work/varve/.varve/cassandra"));
    assertThat(dev.libDirectory())
        .isEqualTo(Path.of("/work/varve/local/cassandra-dist/target/lib"));
    assertThat(dev.cqlAddress().getPort()).isEqualTo(9042);
    assertThat(dev.cqlAddress().getHostString()).isEqualTo("127.0.0.1");
    assertThat(dev.storagePort()).isEqualTo(7000);
    assertThat(dev.jmxPort()).isEqualTo(7199);
    assertThat(dev.heapSize()).isEqualTo("1g");
    assertThat(dev.commitlogSync()).isEqualTo(CommitlogSync.batch());
    assertThat(dev.javaExecutable())
        .isEqualTo(Path.of(System.getProperty("java.home"), "bin", "java").toAbsolutePath());
  }

  @Test
  void test_instance_can_run_beside_the_development_instance() {
    LocalCassandraSettings dev = LocalCassandraSettings.forDevelopment(VARVE);
    LocalCassandraSettings tests = LocalCassandraSettings.forTests(VARVE);

    assertThat(tests.home()).isEqualTo(Path.of("/work/varve/.varve/test-cassandra"));
    assertThat(tests.libDirectory()).isEqualTo(dev.libDirectory());
    assertThat(new int[] {tests.cqlPort(), tests.storagePort(), tests.jmxPort()})
        .containsExactly(19042, 17000, 17199)
        .doesNotContain(dev.cqlPort(), dev.storagePort(), dev.jmxPort());
    assertThat(tests.heapSize()).isEqualTo("1g");
  }

  @Test
  void files_of_a_node_live_under_its_home() {
    LocalCassandraSettings settings = LocalCassandraSettings.forTests(VARVE);

    assertThat(settings.pidFile()).isEqualTo(settings.home().resolve("cassandra.pid"));
    assertThat(settings.systemLog()).isEqualTo(settings.home().resolve("logs/system.log"));
    assertThat(settings.stdoutLog()).isEqualTo(settings.home().resolve("logs/stdout.log"));
    assertThat(settings.confDirectory()).isEqualTo(settings.home().resolve("conf"));
  }

  @Test
  void a_builder_changes_only_what_is_set_and_leaves_the_original_alone() {
    LocalCassandraSettings dev = LocalCassandraSettings.forDevelopment(VARVE);

    LocalCassandraSettings moved =
        dev.toBuilder()
            .cqlPort(29042)
            .home(Path.of("/tmp/node"))
            .commitlogSync(CommitlogSync.group(Duration.ofMillis(5)))
            .build();

    assertThat(moved.cqlPort()).isEqualTo(29042);
    assertThat(moved.home()).isEqualTo(Path.of("/tmp/node"));
    assertThat(moved.commitlogSync().groupWindow()).isEqualTo(Duration.ofMillis(5));
    assertThat(dev.cqlPort()).isEqualTo(9042);
    assertThat(dev.commitlogSync().isGroup()).isFalse();
  }

  @Test
  void a_builder_checks_the_ports_it_builds_not_each_step_so_two_ports_can_swap() {
    LocalCassandraSettings dev = LocalCassandraSettings.forDevelopment(VARVE);

    LocalCassandraSettings swapped = dev.toBuilder().cqlPort(7000).storagePort(9042).build();

    assertThat(swapped.cqlPort()).isEqualTo(7000);
    assertThat(swapped.storagePort()).isEqualTo(9042);
    assertThat(dev.toBuilder().ports(7000, 9042, 7199).build()).isEqualTo(swapped);
  }

  @Test
  void a_node_of_a_cluster_takes_its_address_and_seed_together() {
    LocalCassandraSettings node =
        LocalCassandraSettings.forTests(VARVE).toBuilder()
            .address("127.0.0.2", "127.0.0.1")
            .build();

    assertThat(node.cqlAddress().getHostString()).isEqualTo("127.0.0.2");
    assertThat(node.seed()).isEqualTo("127.0.0.1");
    assertThat(node.cqlPort()).isEqualTo(19042);
  }

  @Test
  void relative_home_is_made_absolute() {
    LocalCassandraSettings settings =
        LocalCassandraSettings.forDevelopment(VARVE).toBuilder()
            .home(Path.of("some/../node"))
            .build();

    assertThat(settings.home()).isEqualTo(Path.of("node").toAbsolutePath());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 65536})
  void rejects_a_port_out_of_range_naming_the_setting(int port) {
    LocalCassandraSettings dev = LocalCassandraSettings.forDevelopment(VARVE);

    assertThatThrownBy(() -> dev.toBuilder().cqlPort(port).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cqlPort: " + port + " (expected: 1..65535)");
    assertThatThrownBy(() -> dev.toBuilder().storagePort(port).build())
        .hasMessageStartingWith("storagePort: ");
    assertThatThrownBy(() -> dev.toBuilder().jmxPort(port).build())
        .hasMessageStartingWith("jmxPort: ");
  }

  @Test
  void rejects_two_uses_of_one_port() {
    assertThatThrownBy(
            () -> LocalCassandraSettings.forDevelopment(VARVE).toBuilder().jmxPort(9042).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ports: cql=9042 storage=7000 jmx=9042 (expected: three different ports)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "1", "0g", "1.5g", "512k", "-1g", "1 g"})
  void rejects_a_heap_size_the_jvm_would_misread(String heap) {
    assertThatThrownBy(
            () -> LocalCassandraSettings.forDevelopment(VARVE).toBuilder().heapSize(heap).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("heapSize: " + heap + " (expected:");
  }

  @ParameterizedTest
  @ValueSource(strings = {"512m", "2G", "768M", "1g"})
  void accepts_heap_sizes_in_megabytes_and_gigabytes(String heap) {
    assertThat(
            LocalCassandraSettings.forDevelopment(VARVE).toBuilder()
                .heapSize(heap)
                .build()
                .heapSize())
        .isEqualTo(heap);
  }
}
