package io.varve.local.cassandra;

import io.varve.local.LocalServerException;
import io.varve.local.Loopback;
import io.varve.local.Product;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS material and credentials of a secure local Cassandra, all generated on first use in one
 * directory that nothing else writes (by default {@code .varve/secure}):
 *
 * <pre>
 * ca.p12, ca.pem           a certificate authority of this machine (RSA 2048, 10 years)
 * node.p12                 the nodes' key and certificate (localhost, 127.0.0.1-9), signed by it
 * truststore.p12           the CA certificate alone: what clients trust
 * server-chain.pem         the same certificate and the CA's in PEM, and its key in unencrypted
 * server-key.pem           PKCS#8: for the Varve server's own TLS (server.tls)
 * store-password           the password of the three stores
 * role-password            the password of the role {@value #ROLE}
 * api-token                a bearer token for the Varve server (server.auth.bearerTokens)
 * </pre>
 *
 * <p>Passwords and the token are 24 random bytes in URL-safe Base64; the files holding secrets are
 * readable by their owner only. Certificates are made with the JDK's {@code keytool}, the PEM files
 * with the JDK's {@link KeyStore}: nothing but the JDK is needed.
 *
 * @param directory where the files live; made absolute
 */
public record LocalCassandraSecurity(Path directory) {

  /** The role the node's clients log in as: a superuser made at the node's first start. */
  public static final String ROLE = "varve";

  /**
   * The names the nodes' certificate is valid for: {@code localhost} and the address of every node
   * a local cluster may have, so that clients keep hostname validation on whichever node they
   * reach.
   */
  private static final List<String> SUBJECT_ALTERNATIVE_NAMES =
      Stream.concat(
              Stream.of("dns:localhost"),
              IntStream.rangeClosed(1, LocalCassandraCluster.MAX_NODES)
                  .mapToObj(n -> "ip:" + Loopback.nodeAddress(n)))
          .toList();

  /** Makes the directory absolute. */
  public LocalCassandraSecurity {
    directory = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
  }

  /** The developer's: {@code <varveHome>/.varve/secure}. */
  public static LocalCassandraSecurity forDevelopment(Path varveHome) {
    return new LocalCassandraSecurity(varveHome.resolve(".varve/secure"));
  }

  public Path keystore() {
    return directory.resolve("node.p12");
  }

  /** The certificate authority in PEM: what {@code curl --cacert} and the Java client trust. */
  public Path caPem() {
    return directory.resolve("ca.pem");
  }

  public Path truststore() {
    return directory.resolve("truststore.p12");
  }

  public Path certificateChainPem() {
    return directory.resolve("server-chain.pem");
  }

  public Path privateKeyPem() {
    return directory.resolve("server-key.pem");
  }

  /** The stores' type, for clients that ask: {@code PKCS12}. */
  public String storeType() {
    return "PKCS12";
  }

  public String storePassword() {
    return secret("store-password");
  }

  public String rolePassword() {
    return secret("role-password");
  }

  public String apiToken() {
    return secret("api-token");
  }

  /** The file holding {@link #apiToken()}, for a server's {@code tokenFile} and for clients. */
  public Path apiTokenFile() {
    return directory.resolve("api-token");
  }

  /** The file holding {@link #rolePassword()}. */
  public Path rolePasswordFile() {
    return directory.resolve("role-password");
  }

  /**
   * A TLS context that trusts the CA of this directory, and only it: what a client of the node, or
   * of a Varve server using {@link #certificateChainPem()}, connects with.
   *
   * @throws GeneralSecurityException if the trust store cannot be read with the store password
   */
  public SSLContext clientContext() throws IOException, GeneralSecurityException {
    KeyStore trust = KeyStore.getInstance(storeType());
    try (InputStream in = Files.newInputStream(truststore())) {
      trust.load(in, storePassword().toCharArray());
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  /**
   * Generates what is missing: the secrets, the CA, the nodes' certificate, the stores and the PEM
   * files. Does nothing when the node's keystore exists already.
   *
   * @throws LocalServerException if {@code keytool} fails; the message quotes its output
   */
  public synchronized LocalCassandraSecurity ensure() {
    if (Files.exists(certificateChainPem()) && Files.exists(privateKeyPem())) {
      return this;
    }
    try {
      Files.createDirectories(directory);
      for (String secret : List.of("store-password", "role-password", "api-token")) {
        if (!Files.exists(directory.resolve(secret))) {
          writeSecret(secret, randomSecret());
        }
      }
      String password = storePassword();
      for (String file : List.of("ca.p12", "node.p12", "truststore.p12", "node.csr")) {
        Files.deleteIfExists(directory.resolve(file));
      }
      // arguments without spaces, split on spaces; every call adds the store password
      keytool(
          "-genkeypair -alias ca -dname CN=varve-local-ca -keyalg RSA -keysize 2048 -validity 3650"
              + " -ext bc:c -keystore ca.p12 -storetype PKCS12",
          password);
      keytool("-exportcert -rfc -alias ca -keystore ca.p12 -file ca.pem", password);
      keytool(
          "-genkeypair -alias node -dname CN=localhost -keyalg RSA -keysize 2048 -validity 3650"
              + " -keystore node.p12 -storetype PKCS12",
          password);
      keytool("-certreq -alias node -keystore node.p12 -file node.csr", password);
      keytool(
          "-gencert -rfc -alias ca -keystore ca.p12 -infile node.csr -outfile node.pem -validity"
              + " 3650 -ext SAN="
              + String.join(",", SUBJECT_ALTERNATIVE_NAMES)
              + " -ext KU=digitalSignature,keyEncipherment -ext EKU=serverAuth,clientAuth",
          password);
      keytool("-importcert -noprompt -alias ca -file ca.pem -keystore node.p12", password);
      keytool("-importcert -noprompt -alias node -file node.pem -keystore node.p12", password);
      keytool(
          "-importcert -noprompt -alias ca -file ca.pem -keystore truststore.p12 -storetype"
              + " PKCS12",
          password);
      writePems(password);
      for (String key : List.of("ca.p12", "node.p12")) {
        Files.setPosixFilePermissions(
            directory.resolve(key), PosixFilePermissions.fromString("rw-------"));
      }
      return this;
    } catch (IOException | GeneralSecurityException e) {
      throw new LocalServerException(
          Product.CASSANDRA, "Cannot generate the TLS material in " + directory + ": " + e, e);
    }
  }

  /** The node's key in PKCS#8 and its chain, node first, in PEM: what the Varve server reads. */
  private void writePems(String password) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore())) {
      store.load(in, password.toCharArray());
    }
    StringBuilder chain = new StringBuilder();
    for (Certificate certificate : store.getCertificateChain("node")) {
      chain.append(pem("CERTIFICATE", certificate.getEncoded()));
    }
    Files.writeString(certificateChainPem(), chain);
    byte[] key = store.getKey("node", password.toCharArray()).getEncoded();
    writeSecret("server-key.pem", pem("PRIVATE KEY", key));
  }

  private static String pem(String type, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private void keytool(String arguments, String storePassword) throws IOException {
    List<String> args = List.of(arguments.split(" "));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(args);
    command.add("-storepass");
    command.add(storePassword);
    Process process =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IOException("keytool " + args.get(0) + " failed: " + output.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while keytool ran", e);
    }
  }

  private String secret(String name) {
    try {
      return Files.readString(directory.resolve(name)).strip();
    } catch (IOException e) {
      throw new LocalServerException(
          Product.CASSANDRA,
          "Cannot read " + directory.resolve(name) + ": the TLS material is not generated yet",
          e);
    }
  }

  private void writeSecret(String name, String value) throws IOException {
    Path file = directory.resolve(name);
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, value);
  }

  private static String randomSecret() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
