package io.varve.local.testing;

import io.varve.local.LocalServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What {@link TestCassandra}, {@link TestDynamoDb} and {@link TestOpenSearch} share: the server
 * that a system property names as {@code host:port}, else a local one started on first use, and
 * never resolved twice in one JVM. Thread-safe.
 *
 * @param <A> how tests reach the server: an address or an endpoint
 */
final class SharedTestServer<A> {

  private final String addressProperty;
  private final int defaultPort;
  private final Function<URI, A> external;
  private final Supplier<A> local;
  private volatile A address;

  /**
   * @param addressProperty the system property naming an external server, {@code host:port}
   * @param defaultPort the port of a {@code host} without one; -1: the port is required
   * @param external how tests reach that server, from its {@code host:port} as a URI
   * @param local starts a local server and says how tests reach it
   */
  SharedTestServer(
      String addressProperty, int defaultPort, Function<URI, A> external, Supplier<A> local) {
    this.addressProperty = addressProperty;
    this.defaultPort = defaultPort;
    this.external = external;
    this.local = local;
  }

  /** The server named by the property if set and not empty, else the local one, started once. */
  A get() {
    A known = address;
    if (known == null) {
      synchronized (this) {
        known = address;
        if (known == null) {
          String configured = System.getProperty(addressProperty, "").trim();
          known = configured.isEmpty() ? local.get() : external.apply(parse(configured));
          address = known;
        }
      }
    }
    return known;
  }

  /**
   * {@code host:port} as a URI {@code tcp://host:port}; a {@code host} alone gets the default port.
   *
   * @throws IllegalArgumentException naming the property and what it expects
   */
  URI parse(String hostAndPort) {
    URI uri = URI.create("tcp://" + hostAndPort);
    int port = uri.getPort() == -1 ? defaultPort : uri.getPort();
    if (uri.getHost() == null || port == -1 || !uri.getPath().isEmpty()) {
      throw new IllegalArgumentException(
          addressProperty + ": " + hostAndPort + " (expected: host:port)");
    }
    return URI.create("tcp://" + uri.getHost() + ":" + port);
  }

  /** The endpoint of an HTTP server at {@code tcp://host:port}: {@code http://host:port}. */
  static String httpEndpoint(URI hostAndPort) {
    return "http://" + hostAndPort.getHost() + ":" + hostAndPort.getPort();
  }

  /** The directory a system property names, if set and not empty. */
  static Optional<Path> directory(String property) {
    String value = System.getProperty(property, "").trim();
    return value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value));
  }

  /**
   * Starts the server, stops it when the JVM exits, and waits until it answers. With {@code
   * deleteHome}, the exit also deletes its home, unless it failed to start: then its logs explain
   * the failure.
   */
  static void startUntilExit(
      LocalServer server, Duration startup, Duration shutdown, boolean deleteHome) {
    AtomicBoolean ready = new AtomicBoolean();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.stop(shutdown);
                  if (deleteHome && ready.get()) {
                    LocalMachine.deleteTree(server.home());
                  }
                },
                "stop-test-" + server.product().label()));
    server.start();
    server.awaitReady(startup);
    ready.set(true);
  }
}
