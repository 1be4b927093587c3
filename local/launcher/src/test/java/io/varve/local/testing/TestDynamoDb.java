package io.varve.local.testing;

import io.varve.local.LocalDynamoDb;
import io.varve.local.LocalDynamoDbSettings;
import io.varve.local.VarveHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The DynamoDB API endpoint that integration tests of every module share: one server per test
 * JVM. Tests create their own tables on it, with names unique to the run.
 *
 * <p>If the system property {@value #ADDRESS_PROPERTY} is set to {@code host:port}, that server
 * is used as it is. Otherwise a DynamoDB Local is started in memory on a free port of 127.0.0.1,
 * home {@code .varve/test-dynamodb/<port>}, jars from the system property
 * {@value #LIB_PROPERTY} or {@code local/dynamodb-dist/target/lib}, and stopped when the JVM
 * exits. It starts in about 2 s.
 *
 * <p>Uses the JDK only, so any test classpath can take it. Thread-safe.
 */
public final class TestDynamoDb {

  /** System property naming an external server, {@code host:port}; empty = a local one. */
  public static final String ADDRESS_PROPERTY = "varve.test.dynamodb";

  /** System property naming the directory of DynamoDB Local's jars; empty = the default. */
  public static final String LIB_PROPERTY = "varve.dynamodb.lib";

  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(1);
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
  private static volatile String endpoint;

  private TestDynamoDb() {}

  /**
   * The endpoint of a server that accepts DynamoDB API requests, like
   * {@code http://127.0.0.1:41234}, starting the local one on first use and waiting until it
   * answers. Any access key and secret are accepted by DynamoDB Local.
   *
   * @throws io.varve.local.LocalDynamoDbException if the local server cannot start; the message
   *     quotes its log
   */
  public static String endpoint() {
    String known = endpoint;
    if (known == null) {
      synchronized (TestDynamoDb.class) {
        known = endpoint;
        if (known == null) {
          known = resolve();
          endpoint = known;
        }
      }
    }
    return known;
  }

  private static String resolve() {
    String configured = System.getProperty(ADDRESS_PROPERTY, "").trim();
    if (!configured.isEmpty()) {
      return parse(configured);
    }
    Path varveHome = VarveHome.locate();
    int port = freePort();
    String lib = System.getProperty(LIB_PROPERTY, "").trim();
    LocalDynamoDbSettings settings = LocalDynamoDbSettings.forDevelopment(varveHome)
        .withHome(varveHome.resolve(".varve/test-dynamodb").resolve(Integer.toString(port)))
        .withPort(port)
        .withHeapSize("256m");
    if (!lib.isEmpty()) {
      settings = settings.withLibDirectory(Path.of(lib));
    }
    LocalDynamoDb server = new LocalDynamoDb(settings);
    server.start();
    Runtime.getRuntime().addShutdownHook(
        new Thread(() -> server.stop(SHUTDOWN_TIMEOUT), "stop-test-dynamodb"));
    server.awaitReady(STARTUP_TIMEOUT);
    return settings.endpoint().toString();
  }

  static String parse(String hostAndPort) {
    URI uri = URI.create("http://" + hostAndPort);
    if (uri.getHost() == null || uri.getPort() == -1 || !uri.getPath().isEmpty()) {
      throw new IllegalArgumentException(
          ADDRESS_PROPERTY + ": " + hostAndPort + " (expected: host:port)");
    }
    return "http://" + uri.getHost() + ":" + uri.getPort();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on 127.0.0.1", e);
    }
  }
}
