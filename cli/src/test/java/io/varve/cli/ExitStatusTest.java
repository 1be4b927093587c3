package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit status of {@code varve up}, {@code down}, {@code status}, {@code serve} and of the
 * command itself, as a script sees it: a usage error and each command's main failure, run
 * in-process on a Varve home of its own (a temporary directory, so nothing of a developer's {@code
 * ./varve up} is touched). {@code index backfill} and {@code bench} have theirs in their own tests.
 */
class ExitStatusTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();
  @TempDir Path home;

  @BeforeEach
  void useTheTemporaryHome() {
    System.setProperty(VarveHome.PROPERTY, home.toString());
  }

  @AfterEach
  void forgetIt() {
    System.clearProperty(VarveHome.PROPERTY);
  }

  private String stderr() {
    return streams.err();
  }

  @Test
  void a_missing_or_unknown_subcommand_is_invalid_input() {
    assertThat(VarveCli.run()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("Missing subcommand (expected: one of up, down, status, serve");
    assertThat(VarveCli.run("index")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("Missing subcommand (expected: one of backfill");
    assertThat(VarveCli.run("nosuch")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(VarveCli.run("help", "nosuch")).isEqualTo(ExitStatus.INVALID_INPUT.code());
  }

  @Test
  void help_exits_ok_and_lists_every_exit_status() {
    assertThat(VarveCli.run("status", "--help")).isEqualTo(ExitStatus.OK.code());
    for (ExitStatus status : ExitStatus.values()) {
      assertThat(streams.out())
          .containsPattern(
              "\\s" + status.code() + "\\s+" + Pattern.quote(status.summary().substring(0, 20)));
    }
  }

  @Test
  void up_with_a_bad_port_is_invalid_input_and_one_that_cannot_start_is_a_fatal_error() {
    assertThat(VarveCli.run("up", "--port", "eighty")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("--port").contains("eighty");
    // This home has no OpenSearch built: up stops before starting anything (UpCommandTest says
    // more).
    assertThat(VarveCli.run("up")).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(home.resolve(".varve/cassandra")).doesNotExist();
  }

  @Test
  void down_with_an_unknown_option_is_invalid_input_and_a_node_it_cannot_clean_up_is_a_fatal_error()
      throws IOException {
    assertThat(VarveCli.run("down", "--bogus")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(VarveCli.run("down")).isEqualTo(ExitStatus.OK.code());
    // A pid file that cannot be deleted (here a directory with a file in it): down cannot say the
    // node is down.
    Files.createDirectories(home.resolve(".varve/cassandra/cassandra.pid/x"));
    assertThat(VarveCli.run("down")).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stderr()).contains("Cannot delete the pid file");
  }

  @Test
  void status_with_a_bad_port_is_invalid_input_and_nothing_running_completes_with_errors()
      throws IOException {
    assertThat(VarveCli.run("status", "--cql-port", "x"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    int port = freePort();
    assertThat(VarveCli.run("status", "--port", Integer.toString(port)))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out()).contains("cassandra: stopped").contains("varve: not running");
  }

  @Test
  void serve_with_a_bad_configuration_is_invalid_input_and_without_cassandra_a_fatal_error()
      throws IOException {
    assertThat(VarveCli.run("serve", "--port", "x")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(VarveCli.run("serve", "--config", home.resolve("missing.yaml").toString()))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("missing.yaml");
    assertThat(VarveCli.run("serve", "--opensearch", "127.0.0.1:9200"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("--opensearch: \"127.0.0.1:9200\"");
    int cassandra = freePort();
    assertThat(
            VarveCli.run(
                "serve",
                "--port",
                Integer.toString(freePort()),
                "--cassandra",
                "127.0.0.1:" + cassandra))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stderr()).contains("127.0.0.1:" + cassandra);
  }

  /** A port nothing listens on (the socket is closed again at once). */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
