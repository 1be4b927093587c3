package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * {@code varve index backfill} as a user types it, against a stub of the server's HTTP/JSON API:
 * the request it sends, the counts it prints, its exit codes and its messages.
 */
class BackfillCommandTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();
  private final List<String> requests = new ArrayList<>();
  private HttpServer server;
  private int status;
  private String answer;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.add(
              exchange.getRequestMethod()
                  + " "
                  + exchange.getRequestURI()
                  + " "
                  + exchange.getRequestHeaders().getFirst("Authorization")
                  + " "
                  + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] body = answer.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(status, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private int backfill(String... options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "index",
                "backfill",
                "--server",
                "http://127.0.0.1:" + server.getAddress().getPort()));
    args.addAll(List.of(options));
    return VarveCli.run(args.toArray(String[]::new));
  }

  private String stdout() {
    return streams.out();
  }

  private String stderr() {
    return streams.err();
  }

  @Test
  void posts_the_interval_and_prints_the_counts() throws Exception {
    status = 200;
    answer = "{\"eventsRead\": \"123\", \"eventsIndexed\": \"120\", \"unparsableValues\": \"3\"}";
    int code =
        backfill(
            "--namespace",
            "n",
            "--from",
            "2026-11-22T00:00:00Z",
            "--to",
            "2026-11-23T02:00:00+02:00",
            "--token",
            "s3cret");
    assertThat(code).as(stderr()).isZero();
    // The counts the server leaves out because they are 0 are printed as 0.
    assertThat(stdout())
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "eventsRead=123",
                "eventsIndexed=120",
                "unparsableValues=3",
                "eventsFailed=0",
                ""));
    assertThat(requests).hasSize(1);
    assertThat(requests.get(0)).startsWith("POST /v1/BackfillIndex Bearer s3cret {");
    JsonNode body =
        new ObjectMapper().readTree(requests.get(0).substring(requests.get(0).indexOf('{')));
    assertThat(body.path("namespace").asText()).isEqualTo("n");
    // An offset is turned into UTC.
    assertThat(body.path("timeInterval").path("start").asText()).isEqualTo("2026-11-22T00:00:00Z");
    assertThat(body.path("timeInterval").path("end").asText()).isEqualTo("2026-11-23T00:00:00Z");
  }

  @Test
  void events_that_failed_to_index_complete_with_errors() {
    status = 200;
    answer = "{\"eventsRead\": \"10\", \"eventsIndexed\": \"7\", \"eventsFailed\": \"3\"}";
    assertThat(
            backfill(
                "--namespace",
                "n",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-23T00:00:00Z"))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(stdout()).contains("eventsIndexed=7").contains("eventsFailed=3");
    assertThat(stderr()).contains("3 events were not indexed");
  }

  @Test
  void an_error_of_the_server_is_printed_with_its_code_field_and_message() {
    status = 404;
    answer =
        "{\"error\": {\"code\": \"NOT_FOUND\", \"field\": \"namespace\","
            + " \"message\": \"namespace: \\\"nope\\\" (expected: an existing namespace)\"}}";
    // A request the server refuses fails the same way when sent again: invalid input.
    assertThat(
            backfill(
                "--namespace",
                "nope",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-23T00:00:00Z"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(stderr())
        .contains(
            "BackfillIndex failed: NOT_FOUND (field namespace): namespace: \"nope\""
                + " (expected: an existing namespace)");
    assertThat(stdout()).doesNotContain("eventsRead");

    // A failure of the server may pass: a fatal error of this run.
    status = 502;
    answer = "Bad Gateway";
    assertThat(
            backfill(
                "--namespace",
                "n",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-23T00:00:00Z"))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stderr()).contains("BackfillIndex failed: HTTP 502: Bad Gateway");
  }

  @Test
  void bad_times_are_usage_errors_naming_the_option_and_send_nothing() {
    assertThat(backfill("--namespace", "n", "--from", "yesterday", "--to", "2026-11-23T00:00:00Z"))
        .isEqualTo(2);
    assertThat(stderr())
        .contains("--from: \"yesterday\" (expected: an RFC 3339 time, like 2026-11-22T00:00:00Z)");
    assertThat(backfill("--namespace", "n", "--from", "2026-11-22T00:00:00Z", "--to", "2026-11-23"))
        .isEqualTo(2);
    assertThat(stderr()).contains("--to: \"2026-11-23\" (expected: an RFC 3339 time");
    assertThat(
            backfill(
                "--namespace",
                "n",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-22T00:00:00Z"))
        .isEqualTo(2);
    assertThat(stderr()).contains("--to: \"2026-11-22T00:00:00Z\" (expected: a time after --from");
    assertThat(requests).isEmpty();
  }

  @Test
  void missing_options_and_a_bad_server_are_usage_errors() {
    assertThat(VarveCli.run("index", "backfill", "--namespace", "n")).isEqualTo(2);
    assertThat(stderr()).contains("Missing required options").contains("--from").contains("--to");
    assertThat(
            VarveCli.run(
                "index",
                "backfill",
                "--namespace",
                "n",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-23T00:00:00Z",
                "--server",
                "localhost:8080"))
        .isEqualTo(2);
    assertThat(stderr())
        .contains("--server: \"localhost:8080\" (expected: http://host:port or https://host:port)");
  }

  @Test
  void an_unreachable_server_is_a_fatal_error_naming_it() {
    server.stop(0);
    String address = "http://127.0.0.1:" + server.getAddress().getPort();
    assertThat(
            VarveCli.run(
                "index",
                "backfill",
                "--server",
                address,
                "--namespace",
                "n",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-23T00:00:00Z"))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stderr()).contains("cannot reach the Varve server at " + address);
  }

  @Test
  void refusals_are_invalid_input_and_timeouts_overload_and_server_errors_are_fatal() {
    assertThat(List.of(400, 401, 403, 404, 409, 413))
        .allSatisfy(
            http ->
                assertThat(BackfillCommand.statusOf(http))
                    .as("HTTP " + http)
                    .isEqualTo(ExitStatus.INVALID_INPUT));
    assertThat(List.of(408, 429, 500, 502, 503, 504))
        .allSatisfy(
            http ->
                assertThat(BackfillCommand.statusOf(http))
                    .as("HTTP " + http)
                    .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR));
  }

  @Test
  void the_default_server_is_the_one_varve_up_starts() {
    BackfillCommand backfill =
        CommandLine.populateCommand(
            new BackfillCommand(),
            "--namespace",
            "n",
            "--from",
            "2026-11-22T00:00:00Z",
            "--to",
            "2026-11-23T00:00:00Z");
    assertThat(backfill.server)
        .isEqualTo(
            Instances.server(Instances.DEFAULT_PORT, List.of()).settings().endpoint().toString())
        .isEqualTo("http://127.0.0.1:8080");
  }
}
