package io.varve.server.config;

import io.varve.core.error.InvalidFieldException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's TLS certificate, as its files ({@code server.tls.certificateChain}, {@code
 * server.tls.privateKey}) give it, checked before the server starts: a certificate that has expired
 * or is not yet valid, or a key that is not the certificate's, stops the server with a message
 * naming the key, the file and what is wrong. (Served as they were, an expired certificate made
 * every client's handshake fail while the server looked healthy, and a key of another certificate
 * stopped it with "General OpenSslEngine problem".)
 *
 * @param subject the first certificate's subject
 * @param notAfter when the first certificate expires
 */
public record ServerCertificate(String subject, Instant notAfter) {

  /** A certificate expiring sooner than this is logged as a warning at start. */
  public static final Duration RENEWAL_WARNING = Duration.ofDays(30);

  private static final Pattern CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----");
  private static final Pattern PKCS8_KEY =
      Pattern.compile("-----BEGIN PRIVATE KEY-----([^-]*)-----END PRIVATE KEY-----");

  /**
   * Reads and checks the files of {@code tls} at {@code now}.
   *
   * @throws InvalidFieldException naming {@code server.tls.certificateChain} or {@code
   *     server.tls.privateKey}, its file and the problem
   */
  public static ServerCertificate check(ServerSettings.Tls tls, Instant now) {
    String chainKey = ServerOptions.CERTIFICATE_CHAIN.key();
    String keyKey = ServerOptions.PRIVATE_KEY.key();
    List<X509Certificate> chain = certificates(chainKey, tls.certificateChain());
    X509Certificate leaf = chain.get(0);
    String subject = leaf.getSubjectX500Principal().getName();
    Instant notBefore = leaf.getNotBefore().toInstant();
    Instant notAfter = leaf.getNotAfter().toInstant();
    if (now.isAfter(notAfter)) {
      throw InvalidFieldException.of(
          chainKey,
          tls.certificateChain()
              + ": the certificate of "
              + subject
              + " expired at "
              + notAfter
              + " (expected: a certificate valid now; every client would refuse it)");
    }
    if (now.isBefore(notBefore)) {
      throw InvalidFieldException.of(
          chainKey,
          tls.certificateChain()
              + ": the certificate of "
              + subject
              + " is valid only from "
              + notBefore
              + " (expected: a certificate valid now; check this machine's clock)");
    }
    requireKeyOf(leaf, keyKey, tls.privateKey(), chainKey, tls.certificateChain());
    return new ServerCertificate(subject, notAfter);
  }

  /** How long until the certificate expires, from {@code now}; negative once it has. */
  public Duration remaining(Instant now) {
    return Duration.between(now, notAfter);
  }

  private static List<X509Certificate> certificates(String key, Path file) {
    String text = read(key, file);
    List<X509Certificate> chain = new ArrayList<>();
    Matcher m = CERTIFICATE.matcher(text);
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      while (m.find()) {
        chain.add(
            (X509Certificate)
                factory.generateCertificate(new ByteArrayInputStream(base64(m.group(1)))));
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw InvalidFieldException.of(
          key, file + ": a certificate cannot be read: " + e.getMessage() + " (expected: PEM)");
    }
    if (chain.isEmpty()) {
      throw InvalidFieldException.of(
          key, file + ": holds no certificate (expected: -----BEGIN CERTIFICATE----- blocks)");
    }
    return chain;
  }

  private static void requireKeyOf(
      X509Certificate leaf, String key, Path file, String chainKey, Path chainFile) {
    Matcher m = PKCS8_KEY.matcher(read(key, file));
    if (!m.find()) {
      throw InvalidFieldException.of(
          key,
          file
              + ": holds no unencrypted PKCS#8 private key (expected: a -----BEGIN PRIVATE KEY-----"
              + " block; convert another form with openssl pkcs8 -topk8 -nocrypt)");
    }
    PublicKey publicKey = leaf.getPublicKey();
    String signing =
        switch (publicKey.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          case "Ed448" -> "Ed448";
          default -> null; // another kind of key: the TLS library's own check decides
        };
    if (signing == null) {
      return;
    }
    try {
      PrivateKey privateKey =
          KeyFactory.getInstance(publicKey.getAlgorithm())
              .generatePrivate(new PKCS8EncodedKeySpec(base64(m.group(1))));
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature sign = Signature.getInstance(signing);
      sign.initSign(privateKey);
      sign.update(challenge);
      byte[] signature = sign.sign();
      Signature verify = Signature.getInstance(signing);
      verify.initVerify(publicKey);
      verify.update(challenge);
      if (verify.verify(signature)) {
        return;
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      // a key of another algorithm than the certificate's, or not a key at all: not its key
    }
    throw InvalidFieldException.of(
        key,
        file
            + ": is not the private key of the certificate of "
            + leaf.getSubjectX500Principal().getName()
            + " in "
            + chainKey
            + " "
            + chainFile
            + " (expected: the key the certificate was issued for)");
  }

  private static String read(String key, Path file) {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw InvalidFieldException.of(key, file + ": cannot be read: " + e.getMessage());
    }
  }

  private static byte[] base64(String body) {
    return Base64.getMimeDecoder().decode(body);
  }
}
