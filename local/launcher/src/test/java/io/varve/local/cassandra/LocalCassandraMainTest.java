package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCassandraMainTest {

  @TempDir Path varveHome;
  private final LauncherOutput launcher = new LauncherOutput(LocalCassandraMain::run);

  @Test
  void status_of_a_node_never_started_is_stopped_with_exit_status_1() {
    int status = run("status", "--varve-home", varveHome.toString());

    assertThat(status).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code()).isEqualTo(1);
    assertThat(launcher.out())
        .isEqualTo("cassandra: stopped home=" + varveHome.resolve(".varve/cassandra") + "\n");
  }

  @Test
  void tests_flag_selects_the_test_instance() {
    run("status", "--tests", "--varve-home", varveHome.toString());

    assertThat(launcher.out()).contains(varveHome.resolve(".varve/test-cassandra").toString());
  }

  @Test
  void stop_of_a_node_that_is_not_running_succeeds() {
    int status = run("stop", "--home", varveHome.resolve("node").toString());

    assertThat(status).isZero();
    assertThat(launcher.out())
        .isEqualTo("cassandra: not running home=" + varveHome.resolve("node") + "\n");
  }

  @Test
  void start_without_built_jars_is_a_fatal_error_saying_how_to_build_them() {
    int status = run("start", "--varve-home", varveHome.toString());

    assertThat(status).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(launcher.err())
        .startsWith("cassandra: start failed: ")
        .contains("mvn -q -DskipTests install");
  }

  @Test
  void stop_that_cannot_remove_the_pid_file_is_a_fatal_error() throws Exception {
    Path node = varveHome.resolve("node");
    Files.createDirectories(node.resolve("cassandra.pid").resolve("x"));

    assertThat(run("stop", "--home", node.toString()))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(launcher.err()).startsWith("cassandra: stop failed: Cannot delete the pid file");
  }

  @Test
  void ports_are_checked_together_so_they_can_be_swapped() {
    int status =
        run(
            "status",
            "--varve-home",
            varveHome.toString(),
            "--port",
            "7000",
            "--storage-port",
            "9042");

    assertThat(status).isEqualTo(1);
    assertThat(launcher.err()).isEmpty();
  }

  @Test
  void invalid_settings_name_the_setting_and_print_usage() {
    int status = run("start", "--port", "0");

    assertThat(status).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err()).startsWith("cassandra: cqlPort: 0 (expected: 1..65535)\nusage: ");
  }

  @Test
  void unknown_options_and_missing_actions_are_usage_errors() {
    assertThat(run("status", "--bogus", "x")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err()).startsWith("cassandra: unknown option: --bogus");
    assertThat(run("--tests")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err()).contains("cassandra: missing action");
  }

  private int run(String... args) {
    return launcher.run(args);
  }

  @Test
  void nodes_act_on_each_node_of_the_cluster_and_node_on_one() {
    int status = run("status", "--tests", "--nodes", "3", "--varve-home", varveHome.toString());

    assertThat(status).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    Path cluster = varveHome.resolve(".varve/test-cassandra-cluster");
    assertThat(launcher.out())
        .isEqualTo(
            "cassandra: stopped home="
                + cluster.resolve("node1")
                + "\ncassandra: stopped home="
                + cluster.resolve("node2")
                + "\ncassandra: stopped home="
                + cluster.resolve("node3")
                + "\n");
  }

  @Test
  void node_without_nodes_or_out_of_the_cluster_is_a_usage_error() {
    assertThat(run("kill", "--node", "2")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err()).startsWith("cassandra: --node: needs --nodes N");
    assertThat(run("kill", "--nodes", "3", "--node", "4"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
  }
}
