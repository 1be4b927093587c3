package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServiceRequestContext;
import com.linecorp.armeria.server.grpc.GrpcService;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.client.Times;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code varve index backfill} as a user types it, against a stub of the server's control plane
 * over gRPC: the request it sends, the counts it prints, its exit codes and its messages. One stub
 * server for the class (stopping an Armeria server takes 2 s of its event loops' quiet period), its
 * answer and what it saw reset before each test.
 */
class BackfillCommandTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();
  private static final List<BackfillIndexRequest> requests = new CopyOnWriteArrayList<>();
  private static final List<String> authorizations = new CopyOnWriteArrayList<>();
  private static Server server;
  private static volatile Status failure;
  private static volatile BackfillIndexResponse answer;

  @BeforeEach
  void reset() {
    requests.clear();
    authorizations.clear();
    failure = null;
    answer = BackfillIndexResponse.getDefaultInstance();
  }

  @BeforeAll
  static void start() {
    ControlPlaneGrpc.ControlPlaneImplBase stub =
        new ControlPlaneGrpc.ControlPlaneImplBase() {
          @Override
          public void backfillIndex(
              BackfillIndexRequest request, StreamObserver<BackfillIndexResponse> response) {
            requests.add(request);
            authorizations.add(
                String.valueOf(
                    ServiceRequestContext.current().request().headers().get("authorization")));
            if (failure != null) {
              response.onError(failure.asRuntimeException());
            } else {
              response.onNext(answer);
              response.onCompleted();
            }
          }
        };
    server =
        Server.builder()
            .localPort(0, com.linecorp.armeria.common.SessionProtocol.HTTP)
            .service(GrpcService.builder().addService(stub).build())
            .gracefulShutdownTimeoutMillis(0, 0)
            .build();
    server.start().join();
  }

  @AfterAll
  static void stop() {
    server.stop().join();
  }

  private int backfill(String... options) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "index", "backfill", "--server", "http://127.0.0.1:" + server.activeLocalPort()));
    args.addAll(List.of(options));
    return VarveCli.run(args.toArray(String[]::new));
  }

  private static String[] concat(String[] first, String... more) {
    return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
  }

  private String stdout() {
    return streams.out();
  }

  private String stderr() {
    return streams.err();
  }

  @Test
  void sends_the_interval_with_the_token_and_prints_the_counts() {
    answer =
        BackfillIndexResponse.newBuilder()
            .setEventsRead(123)
            .setEventsIndexed(120)
            .setUnparsableValues(3)
            .build();
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
    // The counts that are 0 are printed as 0.
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
    assertThat(authorizations).containsExactly("Bearer s3cret");
    assertThat(requests.get(0).getNamespace()).isEqualTo("n");
    // An offset is turned into UTC.
    assertThat(requests.get(0).getTimeInterval())
        .isEqualTo(
            Times.interval(
                Instant.parse("2026-11-22T00:00:00Z"), Instant.parse("2026-11-23T00:00:00Z")));
  }

  @Test
  void events_that_failed_to_index_complete_with_errors() {
    answer =
        BackfillIndexResponse.newBuilder()
            .setEventsRead(10)
            .setEventsIndexed(7)
            .setEventsFailed(3)
            .build();
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
  void an_error_of_the_server_is_printed_with_its_code_and_message() {
    failure =
        Status.NOT_FOUND.withDescription("namespace: \"nope\" (expected: an existing namespace)");
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
            "BackfillIndex failed: NOT_FOUND: namespace: \"nope\" (expected: an existing namespace)");
    assertThat(stdout()).doesNotContain("eventsRead");

    // A failure of the server may pass: a fatal error of this run.
    failure = Status.UNAVAILABLE.withDescription("storage is down; retrying is safe");
    assertThat(
            backfill(
                "--namespace",
                "n",
                "--from",
                "2026-11-22T00:00:00Z",
                "--to",
                "2026-11-23T00:00:00Z"))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(stderr())
        .contains("BackfillIndex failed: UNAVAILABLE: storage is down; retrying is safe");
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
  void a_cacert_is_for_an_https_server_and_must_be_readable(@TempDir Path dir) throws Exception {
    Path pem = Files.writeString(dir.resolve("ca.pem"), "not used");
    String[] interval = {"--namespace", "n", "--from", "2026-11-22T00:00:00Z", "--to"};

    assertThat(backfill(concat(interval, "2026-11-23T00:00:00Z", "--cacert", pem.toString())))
        .isEqualTo(2);
    assertThat(stderr()).contains("--cacert: \"" + pem + "\" (expected: an https:// --server)");
    assertThat(
            VarveCli.run(
                concat(
                    new String[] {"index", "backfill", "--server", "https://127.0.0.1:1"},
                    concat(
                        interval,
                        "2026-11-23T00:00:00Z",
                        "--cacert",
                        dir.resolve("absent.pem").toString()))))
        .isEqualTo(2);
    assertThat(stderr()).contains("(expected: a readable PEM file)");
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
    int port = server.activeLocalPort();
    server.stop().join();
    String address = "http://127.0.0.1:" + port;
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
    assertThat(
            List.of(
                Status.Code.INVALID_ARGUMENT,
                Status.Code.UNAUTHENTICATED,
                Status.Code.PERMISSION_DENIED,
                Status.Code.NOT_FOUND,
                Status.Code.ALREADY_EXISTS,
                Status.Code.FAILED_PRECONDITION))
        .allSatisfy(
            code ->
                assertThat(ServerCallFailure.statusOf(code))
                    .as(code.name())
                    .isEqualTo(ExitStatus.INVALID_INPUT));
    assertThat(
            List.of(
                Status.Code.DEADLINE_EXCEEDED,
                Status.Code.RESOURCE_EXHAUSTED,
                Status.Code.INTERNAL,
                Status.Code.UNAVAILABLE,
                Status.Code.UNKNOWN))
        .allSatisfy(
            code ->
                assertThat(ServerCallFailure.statusOf(code))
                    .as(code.name())
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
            Instances.server(Instances.DEFAULT_PORT, List.of(), false)
                .settings()
                .endpoint()
                .toString())
        .isEqualTo("http://127.0.0.1:8080");
  }
}
