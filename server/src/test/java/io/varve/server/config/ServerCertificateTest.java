package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerCertificateTest {

  private static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir static Path dir;

  /** A key pair and self-signed certificate made by the JDK's keytool, as PEM files. */
  private record Pem(Path certificate, Path key) {}

  private static Pem valid;
  private static Pem expired;
  private static Pem future;

  @BeforeAll
  static void certificates() throws Exception {
    valid = pem("valid", "EC", null, 30);
    expired = pem("expired", "RSA", "-400d", 2);
    future = pem("future", "EC", "+10d", 30);
  }

  private static Pem pem(String name, String algorithm, String start, int days) throws Exception {
    Path store = dir.resolve(name + ".p12");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                algorithm,
                "-dname",
                "CN=" + name,
                "-validity",
                Integer.toString(days),
                "-keystore",
                store.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                new String(PASSWORD)));
    if (start != null) {
      command.addAll(List.of("-startdate", start));
    }
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue()).as(output).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD);
    }
    Path certificate = dir.resolve(name + ".crt");
    Path key = dir.resolve(name + ".key");
    Files.writeString(
        certificate,
        "Bag Attributes\n    friendlyName: "
            + name
            + "\n" // as openssl pkcs12 writes it
            + block("CERTIFICATE", keys.getCertificate(name).getEncoded()));
    Files.writeString(key, block("PRIVATE KEY", keys.getKey(name, PASSWORD).getEncoded()));
    return new Pem(certificate, key);
  }

  private static String block(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static ServerCertificate check(Path certificate, Path key) {
    return ServerCertificate.check(new ServerSettings.Tls(certificate, key), Instant.now());
  }

  @Test
  void a_valid_certificate_with_its_key_passes_and_says_when_it_expires() {
    ServerCertificate certificate = check(valid.certificate(), valid.key());

    assertThat(certificate.subject()).isEqualTo("CN=valid");
    assertThat(certificate.remaining(Instant.now()))
        .isBetween(Duration.ofDays(29), Duration.ofDays(30));
  }

  @Test
  void an_expired_certificate_stops_the_start_naming_the_file_and_the_date() {
    assertThatThrownBy(() -> check(expired.certificate(), expired.key()))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageStartingWith(
            "server.tls.certificateChain: "
                + expired.certificate()
                + ": the certificate of CN=expired expired at ")
        .hasMessageEndingWith("(expected: a certificate valid now; every client would refuse it)");
  }

  @Test
  void a_certificate_not_yet_valid_stops_the_start() {
    assertThatThrownBy(() -> check(future.certificate(), future.key()))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("is valid only from ")
        .hasMessageContaining("check this machine's clock");
  }

  @Test
  void the_key_of_another_certificate_stops_the_start_naming_both_files() {
    // another EC key, and a key of another algorithm (RSA) than the certificate's (EC)
    for (Path otherKey : List.of(future.key(), expired.key())) {
      assertThatThrownBy(() -> check(valid.certificate(), otherKey))
          .isInstanceOf(InvalidFieldException.class)
          .hasMessage(
              "server.tls.privateKey: "
                  + otherKey
                  + ": is not the private key of the certificate of CN=valid in"
                  + " server.tls.certificateChain "
                  + valid.certificate()
                  + " (expected: the key the certificate was issued for)");
    }
  }

  @Test
  void files_without_a_certificate_or_a_pkcs8_key_are_named() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.pem"), "nothing here\n");
    Path sec1 =
        Files.writeString(
            dir.resolve("sec1.key"),
            "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");

    assertThatThrownBy(() -> check(empty, valid.key()))
        .hasMessage(
            "server.tls.certificateChain: "
                + empty
                + ": holds no certificate (expected: -----BEGIN CERTIFICATE----- blocks)");
    assertThatThrownBy(() -> check(valid.certificate(), sec1))
        .hasMessageStartingWith(
            "server.tls.privateKey: " + sec1 + ": holds no unencrypted PKCS#8 private key");
    assertThatThrownBy(() -> check(valid.certificate(), dir.resolve("absent.key")))
        .hasMessageStartingWith(
            "server.tls.privateKey: " + dir.resolve("absent.key") + ": cannot be read");
  }
}
