package io.varve.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.client.CallSettings;
import io.varve.client.Times;
import io.varve.client.VarveClient;
import io.varve.client.VarveClientBuilder;
import io.varve.command.ExitStatus;
import io.varve.core.error.InvalidFieldException;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code varve index backfill}: the control-plane RPC {@code BackfillIndex}, called over gRPC
 * through the Java client. The server indexes again, from the primary store, every event of the
 * namespace in [{@code --from}, {@code --to}), and answers when done; this prints the four counts
 * of its answer as {@code key=value} lines ({@link #COUNTS}).
 *
 * <p>Exit statuses: {@code OK} every event read was indexed; {@code COMPLETED_WITH_ERRORS} some
 * events were not indexed ({@code eventsFailed > 0}); {@code INVALID_INPUT} a usage error,
 * including a time that is not RFC 3339 and an empty interval, or a request the server refused
 * ({@link ServerCallFailure#statusOf(Status.Code)}); {@code ABORTED_FATAL_ERROR} the server could
 * not be reached or failed. The server's error is printed with its code and message.
 */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Index again, from the primary store, every event of a namespace in [--from, --to): after the"
          + " index store was down, or after fields were added to the field mapping. Idempotent; returns when done.",
      "Prints eventsRead, eventsIndexed, unparsableValues and eventsFailed as key=value lines; exits with 1 when"
          + " eventsFailed is not 0, 2 when the server refuses the request, 4 when it fails or cannot be reached."
    })
final class BackfillCommand implements Callable<Integer> {

  /**
   * The counts of the RPC's answer, in the order printed; the server leaves out those that are 0.
   */
  static final List<String> COUNTS =
      List.of("eventsRead", "eventsIndexed", "unparsableValues", "eventsFailed");

  private static final String RFC_3339 = "an RFC 3339 time, like 2026-11-22T00:00:00Z";

  @Spec CommandSpec spec;

  @Option(names = "--namespace", required = true, description = "Namespace whose events to index.")
  String namespace;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "TIME",
      description = "Start of the event-time interval, inclusive: " + RFC_3339 + ".")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "TIME",
      description = "End of the event-time interval, exclusive: an RFC 3339 time.")
  String to;

  @Option(
      names = "--server",
      paramLabel = "URL",
      defaultValue = Instances.DEFAULT_SERVER,
      description =
          "API address of the Varve server (default: ${DEFAULT-VALUE}, that of varve up).")
  String server;

  @Option(names = "--token", description = "Bearer token, when the server requires one.")
  String token;

  @Option(
      names = "--cacert",
      paramLabel = "FILE",
      description =
          "PEM file of the certificates to trust for an https:// --server, such as a private"
              + " certificate authority's (.varve/secure/ca.pem of varve up --secure); default: the"
              + " JVM's trusted authorities.")
  Path cacert;

  @Override
  public Integer call() {
    URI url;
    BackfillIndexRequest.Builder request =
        BackfillIndexRequest.newBuilder().setNamespace(namespace);
    try {
      url = ServerSettings.url("--server", server);
      Instant start = instant("--from", from);
      Instant end = instant("--to", to);
      if (!end.isAfter(start)) {
        throw new InvalidFieldException("--to", to, "a time after --from, " + from);
      }
      request.setTimeInterval(Times.interval(start, end));
      if (cacert != null && !"https".equals(url.getScheme())) {
        throw new InvalidFieldException("--cacert", cacert.toString(), "an https:// --server");
      }
      if (cacert != null && !Files.isReadable(cacert)) {
        throw new InvalidFieldException("--cacert", cacert.toString(), "a readable PEM file");
      }
    } catch (InvalidFieldException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    BackfillIndexResponse answer;
    try (VarveClient client = client(url)) {
      // No deadline: the server answers when the whole interval is indexed.
      answer =
          VarveClient.join(
              client
                  .controlPlane()
                  .backfillIndex(request.build(), CallSettings.defaults().withoutDeadline()));
    } catch (StatusRuntimeException e) {
      ServerCallFailure failure = ServerCallFailure.of("BackfillIndex", server, e);
      System.err.println("varve: " + failure.message());
      return failure.status().code();
    }
    List<Long> counts =
        List.of(
            answer.getEventsRead(),
            answer.getEventsIndexed(),
            answer.getUnparsableValues(),
            answer.getEventsFailed());
    for (int i = 0; i < COUNTS.size(); i++) {
      System.out.println(COUNTS.get(i) + "=" + counts.get(i));
    }
    if (answer.getEventsFailed() > 0) {
      System.err.println(
          "varve: "
              + answer.getEventsFailed()
              + " events were not indexed (the server log says why); run the backfill"
              + " again once the index store is healthy");
      return ExitStatus.COMPLETED_WITH_ERRORS.code();
    }
    return ExitStatus.OK.code();
  }

  /** An RFC 3339 time, with {@code Z} or an offset; errors name the option. */
  static Instant instant(String option, String value) {
    try {
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidFieldException(option, value, RFC_3339);
    }
  }

  /** A client of the one server, sending the token; one request, neither retried nor hedged. */
  private VarveClient client(URI url) {
    VarveClientBuilder builder =
        VarveClient.builder().endpoint(url).retries(0, Duration.ZERO, Duration.ZERO);
    if (token != null) {
      builder.bearerToken(token);
    }
    if (cacert != null) {
      builder.tls(cacert);
    }
    return builder.build();
  }
}
