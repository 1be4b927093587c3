package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.server.SecureApi;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code varve up --secure} as a user runs it, with real processes: the local Cassandra with TLS
 * and passwords, the server on it serving TLS behind the generated token; calls over TLS with and
 * without the token and over plain HTTP, then {@code status} and {@code down}.
 *
 * <p>Runs in a Varve home of its own, {@code .varve/up-secure-it} of the checkout (the files by
 * which a checkout is known, and a link to its Cassandra jars), so that the developer's {@code
 * .varve/cassandra}, {@code .varve/server} and {@code .varve/secure} are never touched; Cassandra
 * on CQL 58042, storage 58000, JMX 58199 (apart from every other test's Cassandra), the server on a
 * free port. Kept across runs, like the other test nodes: the second run restarts the node on its
 * data.
 */
class UpSecureIT {

  /** {@code up --secure} on this test's Cassandra ports, without OpenSearch. */
  static final List<String> SECURE_UP =
      List.of(
          "--secure",
          "--no-opensearch",
          "--cql-port",
          "58042",
          "--storage-port",
          "58000",
          "--jmx-port",
          "58199");

  @RegisterExtension final StandardStreams streams = new StandardStreams();

  static Path home;
  static int port;

  @BeforeAll
  static void home() throws IOException {
    Path checkout = VarveHome.locate();
    home = checkout.resolve(".varve/up-secure-it");
    Path lib = home.resolve("local/cassandra-dist/target/lib");
    Files.createDirectories(lib.getParent());
    if (!Files.exists(lib, LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(lib, LocalCassandraSettings.defaultLibDirectory(checkout));
    }
    for (String marker : List.of("pom.xml", "varve")) {
      if (!Files.exists(home.resolve(marker))) {
        Files.writeString(home.resolve(marker), "");
      }
    }
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = free.getLocalPort();
    }
  }

  @AfterAll
  static void down() {
    run("down");
  }

  @Test
  void up_secure_serves_tls_behind_the_token_on_a_cassandra_with_tls_and_down_stops_it()
      throws Exception {
    assertThat(run("up", SECURE_UP.toArray(String[]::new)))
        .as(streams.err())
        .isEqualTo(ExitStatus.OK.code());
    LocalCassandraSecurity security = LocalCassandraSecurity.forDevelopment(home);
    String token = security.apiToken();
    String api = "https://127.0.0.1:" + port;
    assertThat(streams.out())
        .contains("TLS only: " + api)
        .contains(security.caPem().toString())
        .contains(security.apiTokenFile().toString())
        .doesNotContain(token)
        .doesNotContain(security.rolePassword());
    assertThat(Files.readString(home.resolve(".varve/server/server.log")))
        .doesNotContain(token)
        .doesNotContain(security.rolePassword());

    SecureApi access = new SecureApi(security.caPem(), security.apiTokenFile());
    HttpClient https =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(access.sslContext())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    HttpResponse<String> listed = https.send(listNamespaces(api, token), ofString());
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(listed.body()).contains("namespaces");
    HttpResponse<String> anonymous = https.send(listNamespaces(api, null), ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).contains("UNAUTHENTICATED");
    assertThatThrownBy(
            () -> https.send(listNamespaces("http://127.0.0.1:" + port, token), ofString()))
        .isInstanceOf(IOException.class);

    assertThat(run("status", "--cql-port", "58042")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .contains("cassandra: running")
        .contains("varve: running")
        .contains("api=" + api);

    assertThat(run("down", "--cql-port", "58042")).isEqualTo(ExitStatus.OK.code());
    assertThat(run("status", "--cql-port", "58042"))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThatThrownBy(() -> https.send(listNamespaces(api, token), ofString()))
        .isInstanceOf(IOException.class);
  }

  private static HttpRequest listNamespaces(String endpoint, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(endpoint + "/v1/ListNamespaces"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}"));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return request.build();
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }

  /** Runs a {@code varve} command on this test's home and server port; returns its exit status. */
  private static int run(String command, String... args) {
    String before = System.getProperty(VarveHome.PROPERTY);
    System.setProperty(VarveHome.PROPERTY, home.toString());
    try {
      return VarveCli.run(
          Stream.concat(Stream.of(command, "--port", Integer.toString(port)), Stream.of(args))
              .toArray(String[]::new));
    } finally {
      System.setProperty(VarveHome.PROPERTY, before == null ? "" : before);
    }
  }
}
