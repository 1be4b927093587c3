package io.varve.bench.binding.varve;

import static io.varve.bench.binding.BindingHarness.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.binding.BindingHarness;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.result.RunResult;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.testing.TestCassandra;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;

/**
 * The varve binding against a server that serves TLS only, behind a bearer token, as {@code ./varve
 * up --secure} runs it: {@code https://}, the authority to trust ({@code varve.cacert}) and the
 * token. The certificate authority, the server's certificate and the token are the launcher's
 * ({@link LocalCassandraSecurity}, generated in a temporary directory); Cassandra is the plain test
 * node.
 */
class VarveBindingTlsIT {
  private static final String METADATA = "varve_bench_tls_it";
  private static final String NAMESPACE = "bench_varve_tls_it";

  @TempDir static Path dir;
  private static LocalCassandraSecurity security;
  private static VarveServer server;

  @BeforeAll
  static void start() throws Exception {
    security = new LocalCassandraSecurity(dir.resolve("secure")).ensure();
    InetSocketAddress cassandra = TestCassandra.contactPoint();
    Path file = dir.resolve("varve.yaml");
    // The API over TLS behind one token; Cassandra as for every other test.
    Files.writeString(
        file,
        "server: {host: 127.0.0.1, tls: {certificateChain: \""
            + security.certificateChainPem()
            + "\", privateKey: \""
            + security.privateKeyPem()
            + "\"}, auth: {bearerTokens: [\""
            + security.apiToken()
            + "\"]}}\ncassandra: {contactPoints: [\""
            + cassandra.getHostString()
            + ":"
            + cassandra.getPort()
            + "\"], localDatacenter: datacenter1, metadataKeyspace: "
            + METADATA
            + "}\n");
    server =
        VarveServer.start(
            ServerSettings.load(file).toBuilder()
                .port(0)
                .shutdown(ServerSettings.Shutdown.AT_ONCE)
                .build());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Properties secure() {
    Properties p = BindingHarness.workloadA(50, 50);
    p.setProperty("varve.url", "https://127.0.0.1:" + server.port());
    p.setProperty("varve.cacert", security.caPem().toString());
    p.setProperty("varve.token", security.apiToken());
    p.setProperty("varve.namespace", NAMESPACE);
    p.setProperty("varve.create", "true");
    return p;
  }

  @Test
  void loads_and_runs_over_tls_with_the_token_trusting_the_given_authority() throws Exception {
    RunResult load = BindingHarness.run("varve", BenchSpec.Phase.LOAD, secure());
    assertThat(load.operations().get("INSERT").errors()).isEmpty();
    assertThat(load.operations().get("INSERT").count()).isEqualTo(50);

    RunResult run = BindingHarness.run("varve", BenchSpec.Phase.RUN, secure());
    assertThat(run.operations().get("READ").errors()).isEmpty();
    assertThat(run.operations().get("READ").count()).isPositive();
    // the server's /metrics, scraped over TLS with the same authority and token
    List<io.varve.bench.load.LoadSource> scrape =
        VarveServerLoad.sources("varve", secure(), System.err);
    assertThat(scrape).hasSize(1);
    assertThat(scrape.get(0).totals().get("varve_server.requests")).isPositive();
  }

  @Test
  void without_the_authority_the_token_or_https_the_binding_does_not_start() {
    Properties untrusted = secure();
    untrusted.remove("varve.cacert");
    assertThatThrownBy(() -> open(new VarveBinding(), untrusted))
        .isInstanceOf(DBException.class)
        .hasMessageContaining("cannot reach Varve");

    Properties anonymous = secure();
    anonymous.remove("varve.token");
    assertThatThrownBy(() -> open(new VarveBinding(), anonymous))
        .isInstanceOf(DBException.class)
        .hasMessageContaining("UNAUTHENTICATED");

    Properties plain = secure();
    plain.setProperty("varve.url", "http://127.0.0.1:" + server.port());
    assertThatThrownBy(() -> open(new VarveBinding(), plain))
        .isInstanceOf(DBException.class)
        .hasMessage(
            "varve.cacert: needs an https:// varve.url, not http://127.0.0.1:" + server.port());

    Properties missing = secure();
    missing.setProperty("varve.cacert", dir.resolve("absent.pem").toString());
    assertThatThrownBy(() -> open(new VarveBinding(), missing))
        .isInstanceOf(DBException.class)
        .hasMessageStartingWith("varve.cacert: tls: ");
  }
}
