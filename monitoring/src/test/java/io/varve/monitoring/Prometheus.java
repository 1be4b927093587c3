package io.varve.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server started for a test: its own port on 127.0.0.1, its own data directory, a
 * configuration that scrapes one target every second and evaluates a rule file every second.
 * Queried through its HTTP API. The binary is {@value #BINARY_PROPERTY} (default {@code prometheus}
 * on the PATH), its tool {@value #PROMTOOL_PROPERTY} (default {@code promtool}).
 */
final class Prometheus implements AutoCloseable {

  static final String BINARY_PROPERTY = "varve.test.prometheus";
  static final String PROMTOOL_PROPERTY = "varve.test.promtool";

  /** The scrape job's name, which the rules' {@code up{job=~"varve.*"}} expects. */
  static final String JOB = "varve";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final URI base;
  private final Path log;

  private Prometheus(Process process, URI base, Path log) {
    this.process = process;
    this.base = base;
    this.log = log;
  }

  /** The prometheus binary to run. */
  static String binary() {
    return System.getProperty(BINARY_PROPERTY, "prometheus");
  }

  /** The promtool binary to run. */
  static String promtool() {
    return System.getProperty(PROMTOOL_PROPERTY, "promtool");
  }

  /** Whether {@code command} runs (found on the PATH, or a path to an executable). */
  static boolean runs(String command) {
    try {
      Process p = new ProcessBuilder(command, "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Starts Prometheus in {@code dir} scraping {@code target} ({@code host:port}) every second, with
   * {@code rules} evaluated every second, and waits until it is ready.
   */
  static Prometheus start(Path dir, String target, Path rules) throws IOException {
    int port = freePort();
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        "global:\n"
            + "  scrape_interval: 1s\n"
            + "  scrape_timeout: 1s\n"
            + "  evaluation_interval: 1s\n"
            + "rule_files:\n"
            + "  - "
            + rules.toAbsolutePath()
            + "\n"
            + "scrape_configs:\n"
            + "  - job_name: "
            + JOB
            + "\n"
            + "    metrics_path: /metrics\n"
            + "    static_configs:\n"
            + "      - targets: ['"
            + target
            + "']\n");
    Path log = dir.resolve("prometheus.log");
    Process process =
        new ProcessBuilder(
                binary(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Prometheus prometheus =
        new Prometheus(process, URI.create("http://127.0.0.1:" + port + "/"), log);
    try {
      prometheus.awaitReady(Duration.ofSeconds(30));
    } catch (RuntimeException | IOException e) {
      prometheus.close();
      throw e;
    }
    return prometheus;
  }

  private void awaitReady(Duration timeout) throws IOException {
    Instant end = Instant.now().plus(timeout);
    while (Instant.now().isBefore(end)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "prometheus exited with " + process.exitValue() + ":\n" + Files.readString(log));
      }
      try {
        HttpResponse<String> ready = get("-/ready");
        if (ready.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      pause(Duration.ofMillis(100));
    }
    throw new IllegalStateException("prometheus not ready in " + timeout + ":\n" + logText());
  }

  /** The answer of {@code /api/v1/query} for {@code expr} at the current time. */
  JsonNode query(String expr) throws IOException {
    HttpResponse<String> response =
        get("api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
    return JSON.readTree(response.body());
  }

  /** Every rule Prometheus loaded, from {@code /api/v1/rules}: each group's rules, flattened. */
  List<JsonNode> rules() throws IOException {
    JsonNode answer = JSON.readTree(get("api/v1/rules").body());
    List<JsonNode> rules = new ArrayList<>();
    for (JsonNode group : answer.path("data").path("groups")) {
      group.path("rules").forEach(rules::add);
    }
    return rules;
  }

  String logText() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private HttpResponse<String> get(String path) throws IOException {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
