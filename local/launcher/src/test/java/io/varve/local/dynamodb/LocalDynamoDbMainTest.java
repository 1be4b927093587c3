package io.varve.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherOutput;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code varve local dynamodb}'s exit statuses, without starting anything. */
class LocalDynamoDbMainTest {

  @TempDir Path varveHome;
  private final LauncherOutput launcher = new LauncherOutput(LocalDynamoDbMain::run);

  @Test
  void status_of_a_server_never_started_completes_with_errors() {
    assertThat(run("status", "--varve-home", varveHome.toString()))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(launcher.out())
        .isEqualTo("dynamodb: stopped home=" + varveHome.resolve(".varve/dynamodb") + "\n");
  }

  @Test
  void unknown_options_and_bad_ports_are_invalid_input() {
    assertThat(run("status", "--bogus", "x")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err()).startsWith("dynamodb: unknown option: --bogus");
    assertThat(run("start", "--port", "http")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(launcher.err())
        .contains("--port: http (expected: 1..65535)")
        .contains("usage: LocalDynamoDbMain");
  }

  @Test
  void start_without_the_built_jars_is_a_fatal_error() {
    assertThat(
            run(
                "start",
                "--home",
                varveHome.resolve("server").toString(),
                "--lib",
                varveHome.resolve("missing").toString()))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(launcher.err()).startsWith("dynamodb: start failed: DynamoDB Local is not built");
  }

  private int run(String... args) {
    return launcher.run(args);
  }
}
