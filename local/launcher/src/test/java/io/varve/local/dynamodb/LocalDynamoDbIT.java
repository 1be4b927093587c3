package io.varve.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.varve.local.LauncherOutput;
import io.varve.local.LocalServerException;
import io.varve.local.VarveHome;
import io.varve.local.testing.LocalMachine;
import io.varve.local.testing.TestDynamoDb;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the real DynamoDB Local from {@code local/dynamodb-dist/target/lib} in a temporary home, on
 * a port of its own, through the same entry point as {@code ./varve local dynamodb}.
 */
class LocalDynamoDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(1);

  private static Path home;
  private static LocalDynamoDbSettings settings;

  @BeforeAll
  static void temporaryHome() throws IOException {
    home = Files.createTempDirectory("varve-dynamodb-it");
    LocalDynamoDbSettings.Builder builder =
        LocalDynamoDbSettings.forDevelopment(VarveHome.locate()).toBuilder()
            .home(home)
            .port(LocalMachine.freePort())
            .heapSize("256m");
    TestDynamoDb.libDirectory().ifPresent(builder::libDirectory);
    settings = builder.build();
  }

  @AfterAll
  static void stopAndDelete() {
    new LocalDynamoDb(settings).stop(TIMEOUT);
    LocalMachine.deleteTree(home);
  }

  @Test
  void starts_answers_on_loopback_only_and_stops() throws Exception {
    assertThat(main("start"))
        .startsWith("dynamodb: running pid=")
        .contains("endpoint=" + settings.endpoint(), "in-memory", "started in");
    assertThat(main("status")).startsWith("dynamodb: running pid=");
    assertThat(main("start")).contains("already running");

    HttpResponse<String> listTables = DynamoDbProbe.listTables(settings.endpoint(), TIMEOUT);
    assertThat(listTables.statusCode()).isEqualTo(200);
    assertThat(listTables.body()).contains("\"TableNames\"");

    Optional<InetAddress> external = LocalMachine.externalAddress();
    assumeTrue(external.isPresent(), "this machine has no non-loopback IPv4 address");
    try (Socket socket = new Socket()) {
      assertThatThrownBy(
              () -> socket.connect(new InetSocketAddress(external.get(), settings.port()), 2000))
          .as("DynamoDB Local must not be reachable on " + external.get())
          .isInstanceOf(IOException.class);
    }

    assertThat(main("stop")).startsWith("dynamodb: stopped pid=");
    assertThat(main("status")).isEqualTo("dynamodb: stopped home=" + home);
    assertThat(DynamoDbProbe.answersListTables(settings.endpoint(), TIMEOUT)).isFalse();
  }

  @Test
  void test_helper_serves_a_started_server() throws Exception {
    URI endpoint = URI.create(TestDynamoDb.endpoint());
    assertThat(endpoint.getHost()).isEqualTo("127.0.0.1");
    assertThat(DynamoDbProbe.answersListTables(endpoint, TIMEOUT)).isTrue();
    assertThat(TestDynamoDb.endpoint()).isEqualTo(endpoint.toString());
  }

  @Test
  void refuses_a_port_taken_by_another_process() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      LocalDynamoDb server =
          new LocalDynamoDb(
              settings.toBuilder().port(taken.getLocalPort()).home(home.resolve("other")).build());
      assertThatThrownBy(server::start)
          .isInstanceOf(LocalServerException.class)
          .hasMessageContaining("Port 127.0.0.1:" + taken.getLocalPort() + " is in use");
    }
  }

  private static String main(String action) {
    LauncherOutput launcher = new LauncherOutput(LocalDynamoDbMain::run);
    int status =
        launcher.run(
            new String[] {
              action,
              "--home",
              home.toString(),
              "--lib",
              settings.libDirectory().toString(),
              "--port",
              Integer.toString(settings.port())
            });
    assertThat(launcher.err()).isEmpty();
    assertThat(status).isEqualTo(action.equals("status") && !isRunning() ? 1 : 0);
    return launcher.out().trim();
  }

  private static boolean isRunning() {
    return new LocalDynamoDb(settings).status().isRunning();
  }
}
