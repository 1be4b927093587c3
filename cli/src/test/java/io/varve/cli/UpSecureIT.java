package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.server.SecureApi;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code varve up --secure --servers 2} as a user runs it, with real processes: the local Cassandra
 * with TLS and passwords, two servers on it serving TLS behind the generated token, one control
 * plane; calls over TLS with and without the token and over plain HTTP, then {@code status} and
 * {@code down}.
 *
 * <p>Runs in a Varve home of its own, {@code .varve/up-secure-it} of the checkout (the files by
 * which a checkout is known, and a link to its Cassandra jars), so that the developer's {@code
 * .varve/cassandra}, {@code .varve/server} and {@code .varve/secure} are never touched; Cassandra
 * on CQL 25042, storage 25000, JMX 25199 (apart from every other test's Cassandra), the servers on
 * API ports 25080 and 25081; {@code status} and {@code down} given no port, so that they act on
 * those {@code up} recorded. Kept across runs, like the other test nodes: the second run restarts
 * the node on its data.
 *
 * <p>About 40 s: {@code up --secure} starts a Cassandra with TLS and authentication and the server,
 * as a user's first run does.
 */
class UpSecureIT {

  /** {@code up --secure} on this test's Cassandra ports, without OpenSearch. */
  static final List<String> SECURE_UP =
      List.of(
          "--secure",
          "--servers",
          "2",
          "--no-opensearch",
          "--cql-port",
          "25042",
          "--storage-port",
          "25000",
          "--jmx-port",
          "25199");

  @RegisterExtension final StandardStreams streams = new StandardStreams();

  static UpTestHome up;

  @BeforeAll
  static void home() throws IOException {
    up = UpTestHome.create("up-secure-it", 25080);
    // What a run that died before its end left running (on the ports it recorded) would refuse
    // this run's up on another API port.
    up.runOnRecord("down");
  }

  @AfterAll
  static void down() {
    up.run("down");
  }

  @Test
  void up_secure_serves_tls_behind_the_token_on_a_cassandra_with_tls_and_down_stops_it()
      throws Exception {
    assertThat(up.run("up", SECURE_UP.toArray(String[]::new)))
        .as(streams.err())
        .isEqualTo(ExitStatus.OK.code());
    LocalCassandraSecurity security = LocalCassandraSecurity.forDevelopment(up.home());
    String token = security.apiToken();
    String api = up.secureApi();
    assertThat(streams.out())
        .contains("TLS only: " + api)
        .contains(security.caPem().toString())
        .contains(security.apiTokenFile().toString())
        .doesNotContain(token)
        .doesNotContain(security.rolePassword());
    assertThat(Files.readString(up.home().resolve(".varve/server/server.log")))
        .doesNotContain(token)
        .doesNotContain(security.rolePassword());

    HttpClient https = UpTestHome.https(new SecureApi(security.caPem(), security.apiTokenFile()));
    HttpResponse<String> listed = https.send(listNamespaces(api, token), ofString());
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(listed.body()).contains("namespaces");
    HttpResponse<String> anonymous = https.send(listNamespaces(api, null), ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).contains("UNAUTHENTICATED");
    assertThatThrownBy(
            () -> https.send(listNamespaces("http://127.0.0.1:" + up.port(), token), ofString()))
        .isInstanceOf(IOException.class);

    // index backfill over TLS with the token: the server answers (this namespace has no index
    // store, as OpenSearch is left out, so there is nothing to backfill); without --cacert the
    // JVM's authorities do not trust the local one, and without the token the server refuses.
    HttpResponse<String> created =
        https.send(
            UpTestHome.call(
                api,
                "CreateNamespace",
                "{\"namespace\":\"up_secure_it\",\"persistence_configuration\":"
                    + "[{\"id\":\"PRIMARY_STORAGE\"}]}",
                token),
            ofString());
    assertThat(created.statusCode()).as(created.body()).isIn(200, 409);
    // the second server of --servers 2: the same control plane, over TLS behind the same token
    String second = "https://127.0.0.1:" + (up.port() + 1);
    assertThat(streams.out()).contains("server 2: " + second);
    HttpResponse<String> listedBySecond = https.send(listNamespaces(second, token), ofString());
    assertThat(listedBySecond.statusCode()).as(listedBySecond.body()).isEqualTo(200);
    assertThat(listedBySecond.body()).contains("up_secure_it");
    String[] backfill = {
      "backfill",
      "--namespace",
      "up_secure_it",
      "--from",
      "2026-01-01T00:00:00Z",
      "--to",
      "2026-01-02T00:00:00Z",
      "--server",
      api
    };
    String ca = security.caPem().toString();
    assertThat(index(backfill, "--token", token, "--cacert", ca))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err()).contains("FAILED_PRECONDITION").contains("no INDEX_STORAGE entry");
    assertThat(index(backfill, "--cacert", ca)).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err()).contains("UNAUTHENTICATED");
    assertThat(index(backfill, "--token", token)).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(streams.err()).contains("is not trusted").contains("--cacert");

    // status and down with no port: those that up recorded, not the defaults (8080, 9042).
    assertThat(up.runOnRecord("status")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .containsPattern("(?m)^cassandra: running pid=\\d+ cql=127\\.0\\.0\\.1:25042$")
        .containsPattern("(?m)^varve: running pid=\\d+ api=" + Pattern.quote(api) + " docs=")
        .containsPattern(
            "(?m)^varve server2: running pid=\\d+ api=" + Pattern.quote(second) + " docs=");

    assertThat(up.runOnRecord("down")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .containsPattern("(?m)^varve: stopped pid=\\d+ api=" + Pattern.quote(api) + "$")
        .containsPattern("(?m)^varve server2: stopped pid=\\d+ api=" + Pattern.quote(second) + "$")
        .containsPattern("(?m)^cassandra: stopped pid=\\d+ cql=127\\.0\\.0\\.1:25042$")
        .contains("opensearch: was not running");
    assertThat(up.runOnRecord("status")).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .contains("cassandra: stopped cql=127.0.0.1:25042")
        .contains("varve: not running api=" + api);
    assertThatThrownBy(() -> https.send(listNamespaces(api, token), ofString()))
        .isInstanceOf(IOException.class);
  }

  /** {@code varve index <args> <more>}, run outside the test's home: it names its server. */
  private static int index(String[] args, String... more) {
    return VarveCli.run(
        Stream.concat(Stream.of("index"), Stream.concat(Stream.of(args), Stream.of(more)))
            .toArray(String[]::new));
  }

  private static HttpRequest listNamespaces(String endpoint, String token) {
    return UpTestHome.call(endpoint, "ListNamespaces", "{}", token);
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return UpTestHome.ofString();
  }
}
