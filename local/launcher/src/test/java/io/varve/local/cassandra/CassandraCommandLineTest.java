package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.LocalServerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassandraCommandLineTest {

  @TempDir Path dir;
  private LocalCassandraSettings settings;

  @BeforeEach
  void builtDistribution() throws IOException {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.createFile(lib.resolve("cassandra-all-5.0.9.jar"));
    Files.createFile(lib.resolve("jamm-0.4.0.jar"));
    settings =
        LocalCassandraSettings.forTests(dir).toBuilder()
            .home(dir.resolve("node"))
            .libDirectory(lib)
            .ports(29042, 27000, 27199)
            .build();
  }

  @Test
  void runs_cassandra_daemon_on_the_lib_jars_and_the_generated_conf() {
    List<String> command = CassandraCommandLine.of(settings);

    assertThat(command.get(0)).isEqualTo(settings.javaExecutable().toString());
    assertThat(command.get(command.size() - 1))
        .isEqualTo("org.apache.cassandra.service.CassandraDaemon");
    assertThat(command.get(command.indexOf("-cp") + 1))
        .isEqualTo(dir.resolve("lib") + "/*:" + dir.resolve("node/conf"));
  }

  @Test
  void loads_jamm_as_agent_so_cassandra_can_measure_memtables() {
    assertThat(CassandraCommandLine.of(settings))
        .contains("-javaagent:" + dir.resolve("lib/jamm-0.4.0.jar"));
  }

  @Test
  void opens_the_jdk_internals_cassandra_5_needs_on_java_17() {
    List<String> command = CassandraCommandLine.of(settings);

    assertThat(command).containsSequence(CassandraCommandLine.JAVA17_MODULE_ACCESS);
    assertThat(String.join(" ", command))
        .contains(
            "--add-opens java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens java.base/java.lang=ALL-UNNAMED");
  }

  @Test
  void points_cassandra_at_its_home_logs_config_and_jmx_port() {
    Path node = dir.resolve("node");

    assertThat(CassandraCommandLine.of(settings))
        .contains(
            "-Dcassandra-foreground=yes",
            "-Dcassandra.config=file://" + node.resolve("conf/cassandra.yaml"),
            "-Dcassandra.storagedir=" + node,
            "-Dcassandra.logdir=" + node.resolve("logs"),
            "-Dlogback.configurationFile=" + node.resolve("conf/logback.xml"),
            "-Dcassandra.jmx.local.port=27199",
            "-Xms1g",
            "-Xmx1g",
            "-Dcassandra.ring_delay_ms=1000",
            "-Dcassandra.skip_wait_for_gossip_to_settle=0");
  }

  @Test
  void a_node_joining_a_cluster_waits_longer_for_its_seed_than_a_single_node() {
    assertThat(
            CassandraCommandLine.of(settings.toBuilder().address("127.0.0.2", "127.0.0.1").build()))
        .contains("-Dcassandra.ring_delay_ms=10000");
    assertThat(
            CassandraCommandLine.of(settings.toBuilder().address("127.0.0.1", "127.0.0.1").build()))
        .contains("-Dcassandra.ring_delay_ms=1000");
  }

  @Test
  void missing_jars_tell_the_user_to_run_the_build() {
    LocalCassandraSettings unbuilt =
        settings.toBuilder().libDirectory(dir.resolve("absent")).build();

    assertThatThrownBy(() -> CassandraCommandLine.of(unbuilt))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining(dir.resolve("absent").toString())
        .hasMessageContaining("mvn -q -DskipTests install")
        .hasMessageContaining("./varve up");
  }

  @Test
  void missing_jamm_is_reported_as_an_incomplete_distribution() throws IOException {
    Files.delete(dir.resolve("lib/jamm-0.4.0.jar"));

    assertThatThrownBy(() -> CassandraCommandLine.of(settings))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("No jamm-*.jar in " + dir.resolve("lib"));
  }

  @Test
  void refuses_a_java_other_than_17() throws IOException {
    Path jdk21 = Files.createDirectories(dir.resolve("jdk-21/bin")).getParent();
    Files.writeString(jdk21.resolve("release"), "JAVA_VERSION=\"21.0.2\"\n");
    Path java =
        Files.createFile(
            jdk21.resolve("bin/java"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));

    assertThatThrownBy(
            () -> CassandraCommandLine.of(settings.toBuilder().javaExecutable(java).build()))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("Java 17")
        .hasMessageContaining("is Java 21.0.2");
  }
}
