package io.varve.client;

import static io.varve.client.VarveClient.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.server.config.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server with TLS (a self-signed certificate made by openssl) and bearer tokens: the client
 * trusts the certificate's PEM file and sends its token.
 */
class TlsTokenIT {

  static final String TOKEN = "client-tls-token";
  static Path certificate;
  static TestVarve varve;

  @BeforeAll
  static void start() throws Exception {
    Path dir = Files.createTempDirectory("varve-client-tls");
    certificate = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Process openssl =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout",
                key.toString(),
                "-out",
                certificate.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(openssl.getInputStream().readAllBytes());
    assertThat(openssl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(openssl.exitValue()).as(output).isZero();
    Path config = dir.resolve("varve.yaml");
    Files.writeString(
        config,
        """
        server:
          tls:
            certificateChain: %s
            privateKey: %s
          auth:
            bearerTokens: ["%s"]
        """
            .formatted(certificate, key, TOKEN));
    varve = new TestVarve(ServerSettings.load(config), "varve_client_tls_it");
  }

  @AfterAll
  static void stop() {
    varve.close();
  }

  @Test
  void a_client_trusting_the_certificate_with_the_token_is_served() {
    try (VarveClient client =
        VarveClient.builder()
            .endpoints("localhost:" + varve.server.port())
            .tls(certificate)
            .bearerToken(TOKEN)
            .build()) {
      ListNamespacesResponse namespaces =
          join(client.controlPlane().listNamespaces(CallSettings.defaults()));
      assertThat(namespaces.getNamespacesList()).isEmpty();
    }
  }

  @Test
  void without_the_token_or_without_tls_the_call_fails() {
    try (VarveClient noToken =
        VarveClient.builder()
            .endpoints("localhost:" + varve.server.port())
            .tls(certificate)
            .build()) {
      assertThatThrownBy(() -> join(noToken.controlPlane().listNamespaces(CallSettings.defaults())))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
    }
    try (VarveClient plaintext =
        VarveClient.builder()
            .endpoints("localhost:" + varve.server.port())
            .bearerToken(TOKEN)
            .retries(0, java.time.Duration.ZERO, java.time.Duration.ZERO)
            .build()) {
      assertThatThrownBy(
              () -> join(plaintext.controlPlane().listNamespaces(CallSettings.defaults())))
          .isInstanceOf(StatusRuntimeException.class);
    }
  }
}
