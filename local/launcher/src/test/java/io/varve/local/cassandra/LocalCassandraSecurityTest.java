package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated TLS material: what a secure node, the server and their clients are given. */
class LocalCassandraSecurityTest {

  @TempDir Path dir;

  @Test
  void generates_a_ca_a_node_certificate_for_the_loopback_addresses_and_owner_only_secrets()
      throws Exception {
    LocalCassandraSecurity security = new LocalCassandraSecurity(dir).ensure();

    List<X509Certificate> chain =
        CertificateFactory.getInstance("X.509")
            .generateCertificates(
                new ByteArrayInputStream(Files.readAllBytes(security.certificateChainPem())))
            .stream()
            .map(X509Certificate.class::cast)
            .toList();
    assertThat(chain).hasSize(2);
    chain.get(0).verify(chain.get(1).getPublicKey());
    assertThat(chain.get(0).getSubjectAlternativeNames())
        .extracting(name -> (Object) name.get(1))
        .contains("localhost", "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.9");
    assertThat(Files.readString(security.privateKeyPem(), StandardCharsets.US_ASCII))
        .startsWith("-----BEGIN PRIVATE KEY-----\n");
    assertThat(security.rolePassword()).hasSize(32).isNotEqualTo(security.storePassword());
    for (Path secret :
        List.of(
            security.privateKeyPem(),
            security.keystore(),
            dir.resolve("role-password"),
            dir.resolve("api-token"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
          .as(secret.toString())
          .isEqualTo("rw-------");
    }
    assertThat(security.clientContext().getProtocol()).isEqualTo("TLS");
  }

  @Test
  void a_second_ensure_keeps_what_exists() throws Exception {
    LocalCassandraSecurity security = new LocalCassandraSecurity(dir).ensure();
    String password = security.rolePassword();
    byte[] chain = Files.readAllBytes(security.certificateChainPem());

    security.ensure();

    assertThat(security.rolePassword()).isEqualTo(password);
    assertThat(Files.readAllBytes(security.certificateChainPem())).isEqualTo(chain);
  }
}
