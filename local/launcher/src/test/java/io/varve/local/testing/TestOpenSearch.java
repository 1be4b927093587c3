package io.varve.local.testing;

import io.varve.local.LocalOpenSearch;
import io.varve.local.LocalOpenSearchSettings;
import io.varve.local.VarveHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The OpenSearch REST endpoint that integration tests of every module share: one node per test
 * JVM. Tests create their own indices on it, with names unique to the run.
 *
 * <p>If the system property {@value #ADDRESS_PROPERTY} is set to {@code host:port}, that node is
 * used as it is (CI starts {@code LocalOpenSearchMain start --tests} and passes
 * {@code 127.0.0.1:19200}). Otherwise a node is started on free ports of 127.0.0.1, home
 * {@code .varve/test-opensearch-<port>}, jars from the system property {@value #LIB_PROPERTY}
 * or {@code local/opensearch-dist/target/lib}, and stopped and deleted when the JVM exits (kept if it failed to start, for its logs). It
 * starts in about 10 s and needs a JDK 21+ (see {@code LocalOpenSearchSettings}).
 *
 * <p>Uses the JDK only, so any test classpath can take it. Thread-safe.
 */
public final class TestOpenSearch {

  /** System property naming an external node, {@code host:port}; empty = a local one. */
  public static final String ADDRESS_PROPERTY = "varve.test.opensearch";

  /** System property naming the directory of OpenSearch's jars; empty = the default. */
  public static final String LIB_PROPERTY = "varve.opensearch.lib";

  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);
  private static volatile String endpoint;

  private TestOpenSearch() {}

  /**
   * The endpoint of an OpenSearch node's REST API, like {@code http://127.0.0.1:41234},
   * starting the local one on first use and waiting until its cluster is green or yellow.
   *
   * @throws io.varve.local.LocalOpenSearchException if the local node cannot start; the message
   *     quotes its log
   */
  public static String endpoint() {
    String known = endpoint;
    if (known == null) {
      synchronized (TestOpenSearch.class) {
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
    int httpPort = freePort();
    int transportPort = freePort();
    while (transportPort == httpPort) {
      transportPort = freePort();
    }
    String lib = System.getProperty(LIB_PROPERTY, "").trim();
    LocalOpenSearchSettings settings = LocalOpenSearchSettings.forDevelopment(varveHome)
        .withHome(varveHome.resolve(".varve/test-opensearch-" + httpPort))
        .withHttpPort(httpPort)
        .withTransportPort(transportPort);
    if (!lib.isEmpty()) {
      settings = settings.withLibDirectory(Path.of(lib));
    }
    LocalOpenSearch node = new LocalOpenSearch(settings);
    AtomicBoolean ready = new AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      node.stop(SHUTDOWN_TIMEOUT);
      if (ready.get()) {
        delete(node.settings().home()); // else its logs explain the failure
      }
    }, "stop-test-opensearch"));
    node.start();
    node.awaitReady(STARTUP_TIMEOUT);
    ready.set(true);
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

  private static void delete(Path home) {
    try (Stream<Path> files = Files.walk(home)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Left behind; the next run uses another port and another directory.
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on 127.0.0.1", e);
    }
  }
}
