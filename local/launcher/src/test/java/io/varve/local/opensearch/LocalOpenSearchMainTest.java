package io.varve.local.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherOutput;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalOpenSearchMainTest {

  @TempDir Path varveHome;
  private final LauncherOutput launcher = new LauncherOutput(LocalOpenSearchMain::run);

  @Test
  void status_of_a_node_never_started_is_stopped_with_exit_status_1() {
    int status = run("status", "--varve-home", varveHome.toString());

    assertThat(status).isEqualTo(1);
    assertThat(launcher.out())
        .isEqualTo("opensearch: stopped home=" + varveHome.resolve(".varve/opensearch") + "\n");
  }

  @Test
  void tests_flag_selects_the_test_instance() {
    run("status", "--tests", "--varve-home", varveHome.toString());

    assertThat(launcher.out()).contains(varveHome.resolve(".varve/test-opensearch").toString());
  }

  @Test
  void stop_of_a_node_that_is_not_running_succeeds() {
    int status = run("stop", "--home", varveHome.resolve("node").toString());

    assertThat(status).isZero();
    assertThat(launcher.out())
        .isEqualTo("opensearch: not running home=" + varveHome.resolve("node") + "\n");
  }

  @Test
  void ports_may_trade_places() {
    int status =
        run("stop", "--home", varveHome.toString(), "--port", "9300", "--transport-port", "9200");

    assertThat(status).isZero();
    assertThat(launcher.err()).isEmpty();
  }

  @Test
  void bad_options_are_invalid_input_naming_the_option_and_what_was_expected() {
    assertThat(run("start", "--home", varveHome.toString(), "--port", "http"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err()).startsWith("opensearch: --port: http (expected: 1..65535)\nusage: ");

    launcher.reset();
    assertThat(
            run(
                "start",
                "--home",
                varveHome.toString(),
                "--port",
                "19300",
                "--transport-port",
                "19300"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err())
        .startsWith("opensearch: transportPort: 19300 (expected: a port other than httpPort)");

    launcher.reset();
    assertThat(run("start", "--home", varveHome.toString(), "--heap", "lots"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err())
        .startsWith(
            "opensearch: heapSize: lots (expected: megabytes or gigabytes, like 512m or 1g)");
  }

  @Test
  void start_without_the_built_jars_is_a_fatal_error_saying_how_to_build_them() {
    int status =
        run(
            "start",
            "--home",
            varveHome.resolve("node").toString(),
            "--lib",
            varveHome.resolve("missing").toString(),
            "--port",
            "29299");

    assertThat(status).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(launcher.err())
        .contains(
            "OpenSearch is not built: " + varveHome.resolve("missing") + " does not exist",
            "mvn -q -f local/pom.xml -DskipTests install");
  }

  private int run(String... args) {
    return launcher.run(args);
  }
}
