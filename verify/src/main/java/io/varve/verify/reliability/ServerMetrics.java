package io.varve.verify.reliability;

import io.varve.local.server.LocalVarveServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The server's own view of a run, from its Prometheus text at {@code /metrics}: which part of a
 * slow answer was spent in the server and which in Cassandra.
 */
final class ServerMetrics {

  private final String text;

  private ServerMetrics(String text) {
    this.text = text;
  }

  static ServerMetrics scrape(LocalVarveServer server) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .build()
            .send(
                HttpRequest.newBuilder(URI.create(server.settings().endpoint() + "/metrics"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return new ServerMetrics(response.statusCode() == 200 ? response.body() : "");
  }

  /**
   * The value of the first sample of {@code metric} whose labels include every one of {@code
   * labels} (each written {@code name="value"}), or empty.
   */
  OptionalDouble sample(String metric, List<String> labels) {
    for (String line : text.lines().toList()) {
      if (!line.startsWith(metric + "{")) {
        continue;
      }
      int close = line.lastIndexOf('}');
      String labelText = line.substring(metric.length() + 1, close);
      if (labels.stream().allMatch(labelText::contains)) {
        return OptionalDouble.of(Double.parseDouble(line.substring(close + 1).trim()));
      }
    }
    return OptionalDouble.empty();
  }

  /** A quantile of a timer in milliseconds, written for a report ("n/a" when absent). */
  String quantileMs(String metric, double quantile, List<String> labels) {
    List<String> all = new java.util.ArrayList<>(labels);
    all.add("quantile=\"" + quantile + "\"");
    OptionalDouble seconds = sample(metric, all);
    return seconds.isPresent()
        ? String.format(java.util.Locale.ROOT, "%.1f", seconds.getAsDouble() * 1000)
        : "n/a";
  }
}
