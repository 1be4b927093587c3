package io.varve.local.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How a client reaches a Varve server that serves its API over TLS only ({@code server.tls}) and
 * asks every call for a bearer token ({@code server.auth}): the certificate authority that signed
 * the server's certificate, and the file that holds a token the server accepts. The token is read
 * from its file when needed and never kept in a setting, so that no setting shows it.
 *
 * @param caCertificate a PEM file of the certificates to trust, and only those; made absolute
 * @param tokenFile a file holding the token; whitespace around it (a final newline) is ignored;
 *     made absolute
 */
public record SecureApi(Path caCertificate, Path tokenFile) {

  /** Makes both paths absolute. */
  public SecureApi {
    caCertificate =
        Objects.requireNonNull(caCertificate, "caCertificate").toAbsolutePath().normalize();
    tokenFile = Objects.requireNonNull(tokenFile, "tokenFile").toAbsolutePath().normalize();
  }

  /**
   * A TLS context that trusts the certificates of {@link #caCertificate()} alone, with hostname
   * validation left to the client (the JDK's HTTP client checks it).
   *
   * @throws IOException if the file cannot be read
   * @throws GeneralSecurityException if it holds no certificate in PEM
   */
  public SSLContext sslContext() throws IOException, GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    try (InputStream in = Files.newInputStream(caCertificate)) {
      int n = 0;
      for (Certificate certificate :
          CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trusted.setCertificateEntry("ca-" + n++, certificate);
      }
      if (n == 0) {
        throw new GeneralSecurityException("no certificate in " + caCertificate);
      }
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  /** The token, read from {@link #tokenFile()} now: what goes after {@code Bearer }. */
  public String bearerToken() throws IOException {
    return Files.readString(tokenFile).strip();
  }
}
