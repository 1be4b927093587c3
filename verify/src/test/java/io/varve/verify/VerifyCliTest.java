package io.varve.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit status of {@code varve verify reliability} and {@code varve verify fuzz} as a script
 * sees it, run in-process without real servers: usage errors, servers that cannot be started or
 * reached, a failed check.
 */
class VerifyCliTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();

  private String stdout() {
    return streams.out();
  }

  private String stderr() {
    return streams.err();
  }

  @Test
  void a_missing_suite_or_an_unknown_phase_is_invalid_input() {
    assertThat(VerifyCli.run()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("Missing subcommand (expected: one of reliability, fuzz");
    assertThat(VerifyCli.run("reliability", "--phases", "server_kill,meteor"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("--phases: meteor (expected: cassandra_kill, server_kill");
  }

  /**
   * A checkout without the built Cassandra: the suite cannot start its servers, which is no failed
   * check.
   */
  @Test
  void reliability_without_its_servers_is_a_fatal_error(@TempDir Path home) {
    assertThat(
            VerifyCli.run("reliability", "--phases", "overload", "--varve-home", home.toString()))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stdout()).contains("reliability.error=").contains("reliability.result=fail");
  }

  @Test
  void fuzz_without_a_server_is_invalid_input_and_an_unreachable_one_a_fatal_error()
      throws IOException {
    assertThat(VerifyCli.run("fuzz")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("Missing required option: '--server");
    assertThat(VerifyCli.run("fuzz", "--server", "http://127.0.0.1:1", "--streams", "17"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr()).contains("--streams: 17 (expected 1 to 16)");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    assertThat(VerifyCli.run("fuzz", "--server", "http://127.0.0.1:" + port, "--requests", "5"))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stderr()).contains("cannot reach the server at http://127.0.0.1:" + port);
  }

  /** A server that answers every request with 500: the run completes, with failures. */
  @Test
  void fuzz_of_a_failing_server_completes_with_errors() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(500, -1);
          exchange.close();
        });
    server.start();
    try {
      assertThat(
              VerifyCli.run(
                  "fuzz",
                  "--server",
                  "http://127.0.0.1:" + server.getAddress().getPort(),
                  "--requests",
                  "3",
                  "--seed",
                  "1"))
          .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    } finally {
      server.stop(0);
    }
    assertThat(stdout()).contains("fuzz.health=500").contains("fuzz.result=FAIL");
  }
}
