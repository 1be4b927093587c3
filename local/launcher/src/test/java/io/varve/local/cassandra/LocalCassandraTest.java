package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.LocalServerException;
import io.varve.local.LocalServerStatus;
import io.varve.local.Product;
import io.varve.local.testing.LocalMachine;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's lifecycle around the Cassandra process, with stand-in processes instead. */
class LocalCassandraTest {

  @TempDir Path dir;
  private LocalCassandraSettings settings;
  private Process standIn;

  @BeforeEach
  void builtDistribution() throws IOException {
    // Ports free now, so that a start fails for the reason under test, not a node running here.
    int[] ports = LocalMachine.freePorts(3);
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Files.createFile(lib.resolve("jamm-0.4.0.jar"));
    settings =
        LocalCassandraSettings.forTests(dir).toBuilder()
            .home(dir.resolve("node"))
            .libDirectory(lib)
            .ports(ports[0], ports[1], ports[2])
            .build();
  }

  @AfterEach
  void stopStandIn() {
    if (standIn != null) {
      standIn.destroyForcibly();
    }
  }

  @Test
  void a_home_without_pid_file_is_stopped() {
    LocalServerStatus status = new LocalCassandra(settings).status();

    assertThat(status.state()).isEqualTo(LocalServerStatus.State.STOPPED);
    assertThat(status.isRunning()).isFalse();
    assertThat(status.address().getPort()).isEqualTo(settings.cqlPort());
  }

  @Test
  void a_pid_of_some_other_process_is_stale_and_never_signalled() throws IOException {
    long otherPid = ProcessHandle.current().pid();
    writePidFile(otherPid);
    LocalCassandra node = new LocalCassandra(settings);

    assertThat(node.status().state()).isEqualTo(LocalServerStatus.State.STALE);
    assertThat(node.status().pid()).isEqualTo(otherPid);
    assertThat(node.kill()).isFalse();
    assertThat(node.stop(Duration.ofSeconds(1))).isFalse();
    assertThat(ProcessHandle.current().isAlive()).isTrue();
    assertThat(settings.pidFile()).doesNotExist();
  }

  @Test
  void cassandra_of_another_home_is_not_this_node() throws IOException {
    standIn = startStandIn(dir.resolve("other-node"));
    writePidFile(standIn.pid());

    assertThat(new LocalCassandra(settings).status().state())
        .isEqualTo(LocalServerStatus.State.STALE);
    assertThat(new LocalCassandra(settings).stop(Duration.ofSeconds(1))).isFalse();
    assertThat(standIn.isAlive()).isTrue();
  }

  @Test
  void stop_terminates_the_process_of_this_home_and_removes_the_pid_file() throws Exception {
    standIn = startStandIn(settings.home());
    writePidFile(standIn.pid());
    LocalCassandra node = new LocalCassandra(settings);

    assertThat(node.status())
        .isEqualTo(
            new LocalServerStatus(
                Product.CASSANDRA,
                LocalServerStatus.State.RUNNING,
                standIn.pid(),
                settings.cqlAddress()));
    assertThat(node.stop(Duration.ofSeconds(10))).isTrue();
    assertThat(standIn.waitFor(5, TimeUnit.SECONDS)).as("stand-in gone").isTrue();
    assertThat(node.status().state()).isEqualTo(LocalServerStatus.State.STOPPED);
    assertThat(node.stop(Duration.ofSeconds(1))).isFalse();
  }

  @Test
  void kill_leaves_a_stale_pid_file_as_a_crash_would() throws Exception {
    standIn = startStandIn(settings.home());
    writePidFile(standIn.pid());
    LocalCassandra node = new LocalCassandra(settings);

    assertThat(node.kill()).isTrue();
    assertThat(standIn.waitFor(5, TimeUnit.SECONDS)).as("stand-in gone").isTrue();
    assertThat(node.status().state()).isEqualTo(LocalServerStatus.State.STALE);
  }

  @Test
  void start_reports_a_port_taken_by_another_process_and_launches_nothing() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      LocalCassandra node =
          new LocalCassandra(settings.toBuilder().cqlPort(taken.getLocalPort()).build());

      assertThatThrownBy(node::start)
          .isInstanceOf(LocalServerException.class)
          .hasMessageContaining("Port 127.0.0.1:" + taken.getLocalPort() + " is in use");
      assertThat(settings.pidFile()).doesNotExist();
    }
  }

  @Test
  void start_without_built_jars_says_how_to_build_them() {
    LocalCassandra node =
        new LocalCassandra(settings.toBuilder().libDirectory(dir.resolve("absent")).build());

    assertThatThrownBy(node::start)
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("mvn -q -DskipTests install");
    assertThat(settings.pidFile()).doesNotExist();
  }

  @Test
  void awaiting_a_node_that_is_not_running_fails_at_once_quoting_its_logs() throws IOException {
    Files.createDirectories(settings.logDirectory());
    Files.writeString(settings.systemLog(), "INFO first\nERROR Saved cluster name Other\n");
    Files.writeString(settings.stdoutLog(), "Terminating due to java.lang.OutOfMemoryError\n");

    assertThatThrownBy(() -> new LocalCassandra(settings).awaitReady(Duration.ofMinutes(5)))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("not running")
        .hasMessageContaining(settings.systemLog().toString())
        .hasMessageContaining("system.log:\n  INFO first\n  ERROR Saved cluster name Other")
        .hasMessageContaining("stdout.log:\n  Terminating due to java.lang.OutOfMemoryError");
  }

  /** A process whose command line looks like the Cassandra of {@code home} to the launcher. */
  private static Process startStandIn(Path home) throws IOException {
    return new ProcessBuilder(
            "/bin/sh",
            "-c",
            "sleep 60; :",
            "cassandra",
            CassandraCommandLine.storageDirArgument(home),
            CassandraCommandLine.MAIN_CLASS)
        .start();
  }

  private void writePidFile(long pid) throws IOException {
    Files.createDirectories(settings.home());
    Files.writeString(settings.pidFile(), pid + "\n");
  }
}
