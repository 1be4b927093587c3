package io.varve.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.command.ExitStatus;
import io.varve.core.error.InvalidFieldException;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * {@code varve index backfill}: the control-plane RPC {@code BackfillIndex}, called as {@code POST
 * /v1/BackfillIndex} with a JSON body. The server indexes again, from the primary store, every
 * event of the namespace in [{@code --from}, {@code --to}), and answers when done; this prints the
 * four counts of its answer as {@code key=value} lines ({@link #COUNTS}).
 *
 * <p>Exit statuses: {@code OK} every event read was indexed; {@code COMPLETED_WITH_ERRORS} some
 * events were not indexed ({@code eventsFailed > 0}); {@code INVALID_INPUT} a usage error,
 * including a time that is not RFC 3339 and an empty interval, or a request the server refused
 * ({@link #statusOf(int)}); {@code ABORTED_FATAL_ERROR} the server could not be reached or failed.
 * The server's error is printed with its code, field and message.
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
  private static final ObjectMapper JSON = new ObjectMapper();

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

  @Override
  public Integer call() throws InterruptedException {
    URI endpoint;
    ObjectNode request = JSON.createObjectNode().put("namespace", namespace);
    try {
      endpoint =
          URI.create(
              ServerSettings.url("--server", server).toString().replaceFirst("/*$", "")
                  + "/v1/BackfillIndex");
      Instant start = instant("--from", from);
      Instant end = instant("--to", to);
      if (!end.isAfter(start)) {
        throw new InvalidFieldException("--to", to, "a time after --from, " + from);
      }
      request.putObject("timeInterval").put("start", start.toString()).put("end", end.toString());
    } catch (InvalidFieldException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    HttpResponse<String> response = post(endpoint, request.toString());
    JsonNode answer = parse(response.body());
    if (response.statusCode() / 100 != 2) {
      System.err.println(
          "varve: BackfillIndex failed: "
              + describeError(response.statusCode(), answer, response.body()));
      return statusOf(response.statusCode()).code();
    }
    for (String count : COUNTS) {
      System.out.println(count + "=" + answer.path(count).asLong(0));
    }
    long failed = answer.path("eventsFailed").asLong(0);
    if (failed > 0) {
      System.err.println(
          "varve: "
              + failed
              + " events were not indexed (the server log says why); run the backfill"
              + " again once the index store is healthy");
      return ExitStatus.COMPLETED_WITH_ERRORS.code();
    }
    return ExitStatus.OK.code();
  }

  /**
   * The exit status of an HTTP error answer: a 4xx refuses the request itself (unknown namespace,
   * bad token, invalid interval), so sending it again fails again; a timeout (408), a rejection
   * under load (429) and a 5xx may pass later.
   */
  static ExitStatus statusOf(int httpStatus) {
    boolean refused = httpStatus / 100 == 4 && httpStatus != 408 && httpStatus != 429;
    return refused ? ExitStatus.INVALID_INPUT : ExitStatus.ABORTED_FATAL_ERROR;
  }

  /** An RFC 3339 time, with {@code Z} or an offset; errors name the option. */
  static Instant instant(String option, String value) {
    try {
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidFieldException(option, value, RFC_3339);
    }
  }

  /**
   * {@code CODE (field F): message} from the error body of the HTTP/JSON API, else the status and
   * the body.
   */
  static String describeError(int status, JsonNode answer, String body) {
    JsonNode error = answer.path("error");
    if (!error.hasNonNull("code")) {
      String text = body.strip();
      return "HTTP "
          + status
          + (text.isEmpty()
              ? ""
              : ": " + (text.length() > 200 ? text.substring(0, 200) + "..." : text));
    }
    return error.path("code").asText()
        + (error.hasNonNull("field") ? " (field " + error.path("field").asText() + ")" : "")
        + ": "
        + error.path("message").asText();
  }

  private HttpResponse<String> post(URI endpoint, String body) throws InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    // No request timeout: the server answers when the whole interval is indexed.
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot reach the Varve server at "
              + server
              + " ("
              + e
              + "); is it running? ./varve status says",
          e);
    }
  }

  private static JsonNode parse(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node == null ? MissingNode.getInstance() : node;
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }
}
