package io.varve.verify.secure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.testing.TestSecureCassandra;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS and authentication end to end, configured as an operator would: a Cassandra that takes TLS
 * only and asks for a password ({@code TestSecureCassandra}), a server that reaches it with {@code
 * cassandra.tls} (hostname validation on) and {@code cassandra.username}/{@code password}, and
 * serves its own API over TLS behind a bearer token. A write and a read go through all of it; a
 * call without the token is refused, and plain HTTP is not served.
 */
class SecureRoundTripIT {

  static final String NAMESPACE = "verify_secure_it_" + System.currentTimeMillis() / 1000 % 100_000;
  @TempDir static Path config;
  static LocalCassandraSecurity security;
  static VarveServer server;
  static HttpClient https;

  @BeforeAll
  static void start() throws Exception {
    InetSocketAddress cassandra = TestSecureCassandra.contactPoint();
    security = TestSecureCassandra.security();
    Path file = config.resolve("varve.yaml");
    Files.writeString(
        file,
        String.join(
            "\n",
            "server:",
            "  host: 127.0.0.1",
            "  tls:",
            "    certificateChain: " + security.certificateChainPem(),
            "    privateKey: " + security.privateKeyPem(),
            "  auth:",
            "    bearerTokens: [\"" + security.apiToken() + "\"]",
            "cassandra:",
            "  contactPoints: [\"" + cassandra.getHostString() + ":" + cassandra.getPort() + "\"]",
            "  localDatacenter: datacenter1",
            "  metadataKeyspace: verify_secure_it",
            "  username: " + LocalCassandraSecurity.ROLE,
            "  password: " + security.rolePassword(),
            "  tls:",
            "    truststore: " + security.truststore(),
            "    truststorePassword: " + security.storePassword(),
            "    hostnameValidation: true",
            ""));
    server =
        VarveServer.start(
            ServerSettings.load(file).toBuilder()
                .port(0)
                .shutdown(ServerSettings.Shutdown.AT_ONCE)
                .build());
    https =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(security.clientContext())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static HttpResponse<String> post(String scheme, String rpc, String body, String token)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + server.port() + "/v1/" + rpc))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void a_write_and_a_read_go_through_tls_and_the_token_to_a_cassandra_with_tls_and_a_password()
      throws Exception {
    String token = security.apiToken();
    HttpResponse<String> created =
        post(
            "https",
            "CreateNamespace",
            "{\"namespace\":\""
                + NAMESPACE
                + "\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\",\"config\":{"
                + "\"timePartition\":{\"secondsPerTimeSlice\":\"86400\",\"secondsPerTimeBucket\":\"3600\","
                + "\"eventBuckets\":4},\"acceptLimit\":\"129600s\"}}]}",
            token);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    Instant time = Instant.now().minus(5, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
    HttpResponse<String> written =
        post(
            "https",
            "WriteEventRecordsSync",
            "{\"namespace\":\""
                + NAMESPACE
                + "\",\"events\":[{\"timeSeriesId\":\"s1\",\"eventTime\":\""
                + time
                + "\",\"eventId\":\"e1\",\"eventItems\":[{\"eventItemKey\":\"aw==\","
                + "\"eventItemValue\":\"dGxz\"}]}]}",
            token);
    assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
    assertThat(written.body()).contains("\"writtenIndexes\":[0]");

    HttpResponse<String> read =
        post(
            "https",
            "ReadEventRecords",
            "{\"namespace\":\""
                + NAMESPACE
                + "\",\"timeSeriesId\":\"s1\",\"timeInterval\":{\"start\":\"2020-01-01T00:00:00Z\","
                + "\"end\":\"2100-01-01T00:00:00Z\"}}",
            token);

    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(read.body()).contains("\"eventId\":\"e1\"").contains("\"eventItemValue\":\"dGxz\"");
  }

  @Test
  void a_call_without_the_token_is_refused_and_plain_http_is_not_served() {
    assertThat(
            assertDoesNotThrowAndGet(
                () -> post("https", "ListNamespaces", "{}", null).statusCode()))
        .isEqualTo(401);
    assertThatThrownBy(() -> post("http", "ListNamespaces", "{}", security.apiToken()))
        .isInstanceOf(IOException.class);
  }

  interface Call {
    int status() throws Exception;
  }

  static int assertDoesNotThrowAndGet(Call call) {
    try {
      return call.status();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
