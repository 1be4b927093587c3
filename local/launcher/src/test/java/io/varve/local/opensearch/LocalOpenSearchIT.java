package io.varve.local.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.LauncherOutput;
import io.varve.local.LocalServerException;
import io.varve.local.VarveHome;
import io.varve.local.testing.LocalMachine;
import io.varve.local.testing.TestOpenSearch;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs a real OpenSearch from {@code local/opensearch-dist/target/lib} on a JDK 21+, in a temporary
 * home, on ports of its own, through the same entry point as {@code ./varve local opensearch}.
 */
class LocalOpenSearchIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private static final String TERM_QUERY = "{\"query\":{\"term\":{\"user\":\"ada\"}}}";

  private static Path home;
  private static LocalOpenSearchSettings settings;

  @BeforeAll
  static void temporaryHome() throws IOException {
    home = Files.createTempDirectory("varve-opensearch-it");
    int httpPort = LocalMachine.freePort();
    LocalOpenSearchSettings.Builder builder =
        LocalOpenSearchSettings.forDevelopment(VarveHome.locate()).toBuilder()
            .home(home)
            .httpPort(httpPort)
            .transportPort(LocalMachine.freePortOtherThan(httpPort));
    TestOpenSearch.libDirectory().ifPresent(builder::libDirectory);
    settings = builder.build();
  }

  @AfterAll
  static void stopAndDelete() {
    new LocalOpenSearch(settings).stop(TIMEOUT);
    LocalMachine.deleteTree(home);
  }

  @Test
  void serves_documents_on_loopback_only_and_keeps_them_across_a_restart() throws Exception {
    assertThat(main("start"))
        .startsWith("opensearch: running pid=")
        .contains(
            "endpoint=" + settings.endpoint(),
            "data=" + settings.dataDirectory(),
            "log=" + settings.systemLog(),
            "started in");
    assertThat(main("status")).startsWith("opensearch: running pid=");
    assertThat(main("start")).contains("already running");

    assertThat(
            send(
                "PUT",
                "/events-it",
                "{\"settings\":{\"number_of_replicas\":0},"
                    + "\"mappings\":{\"properties\":{\"user\":{\"type\":\"keyword\"}}}}"))
        .contains("\"acknowledged\":true");
    assertThat(
            send(
                "PUT",
                "/events-it/_doc/e1?refresh=true",
                "{\"user\":\"ada\",\"note\":\"first event\"}"))
        .contains("\"result\":\"created\"");
    send("PUT", "/events-it/_doc/e2?refresh=true", "{\"user\":\"bob\",\"note\":\"other\"}");
    assertThat(send("POST", "/events-it/_search", TERM_QUERY))
        .contains("\"total\":{\"value\":1,", "\"_id\":\"e1\"", "first event")
        .doesNotContain("\"_id\":\"e2\"");

    Optional<InetAddress> external = LocalMachine.externalAddress();
    if (external.isPresent()) {
      for (int port : new int[] {settings.httpPort(), settings.transportPort()}) {
        try (Socket socket = new Socket()) {
          assertThatThrownBy(
                  () -> socket.connect(new InetSocketAddress(external.get(), port), 2000))
              .as("OpenSearch must not be reachable on " + external.get() + ":" + port)
              .isInstanceOf(IOException.class);
        }
      }
    }

    assertThat(main("stop")).startsWith("opensearch: stopped pid=");
    assertThat(main("status")).isEqualTo("opensearch: stopped home=" + home);
    assertThat(new LocalOpenSearch(settings).isReady()).isFalse();

    assertThat(main("start")).contains("started in");
    assertThat(send("POST", "/events-it/_search", TERM_QUERY))
        .as("the index survives a restart")
        .contains("\"_id\":\"e1\"", "first event");
    assertThat(main("stop")).startsWith("opensearch: stopped pid=");
  }

  @Test
  void test_helper_serves_a_started_node() {
    URI endpoint = URI.create(TestOpenSearch.endpoint());
    assertThat(OpenSearchProbe.isHealthy(endpoint, TIMEOUT)).isTrue();
    assertThat(TestOpenSearch.endpoint()).isEqualTo(endpoint.toString());
  }

  @Test
  void refuses_a_port_taken_by_another_process() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      LocalOpenSearch node =
          new LocalOpenSearch(
              settings.toBuilder()
                  .home(home.resolve("other"))
                  .transportPort(taken.getLocalPort())
                  .build());
      assertThatThrownBy(node::start)
          .isInstanceOf(LocalServerException.class)
          .hasMessageContaining(
              "Port 127.0.0.1:" + taken.getLocalPort() + " (transport) is in use");
      assertThat(node.status().isRunning()).isFalse();
    }
  }

  private static String send(String method, String path, String json) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(settings.endpoint().resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode())
        .as(method + " " + path + ": " + response.body())
        .isBetween(200, 299);
    return response.body();
  }

  private static String main(String action) {
    LauncherOutput launcher = new LauncherOutput(LocalOpenSearchMain::run);
    int status =
        launcher.run(
            new String[] {
              action,
              "--home",
              home.toString(),
              "--lib",
              settings.libDirectory().toString(),
              "--port",
              Integer.toString(settings.httpPort()),
              "--transport-port",
              Integer.toString(settings.transportPort())
            });
    assertThat(launcher.err()).isEmpty();
    assertThat(status).isEqualTo(action.equals("status") && !isRunning() ? 1 : 0);
    return launcher.out().trim();
  }

  private static boolean isRunning() {
    return new LocalOpenSearch(settings).status().isRunning();
  }
}
