package io.varve.local.opensearch;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Pattern;

/** Asks an OpenSearch node for its cluster health, with the JDK's HTTP client. */
final class OpenSearchProbe {

  static final String HEALTH_PATH = "/_cluster/health?wait_for_status=yellow&timeout=1s";

  private static final Pattern USABLE = Pattern.compile("\"status\"\\s*:\\s*\"(green|yellow)\"");
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private OpenSearchProbe() {}

  /**
   * Whether the node answers that its cluster is green or yellow: every primary shard is assigned,
   * so every index can be read and written.
   */
  static boolean isHealthy(URI endpoint, Duration timeout) {
    try {
      HttpResponse<String> response =
          CLIENT.send(
              HttpRequest.newBuilder(endpoint.resolve(HEALTH_PATH)).timeout(timeout).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 && USABLE.matcher(response.body()).find();
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
