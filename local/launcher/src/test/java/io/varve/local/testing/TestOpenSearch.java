package io.varve.local.testing;

import io.varve.local.VarveHome;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The OpenSearch REST endpoint that integration tests of every module share: one node per test JVM.
 * Tests create their own indices on it, with names unique to the run.
 *
 * <p>If the system property {@value #ADDRESS_PROPERTY} is set to {@code host:port}, that node is
 * used as it is (CI starts {@code LocalOpenSearchMain start --tests} and passes {@code
 * 127.0.0.1:19200}). Otherwise a node is started on free ports of 127.0.0.1, home {@code
 * .varve/test-opensearch-<port>}, jars from the system property {@value #LIB_PROPERTY} or {@code
 * local/opensearch-dist/target/lib}, and stopped and deleted when the JVM exits (kept if it failed
 * to start, for its logs). It starts in about 10 s and needs a JDK 21+ (see {@code
 * LocalOpenSearchSettings}).
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
  private static final SharedTestServer<String> SERVER =
      new SharedTestServer<>(
          ADDRESS_PROPERTY, -1, SharedTestServer::httpEndpoint, TestOpenSearch::startLocal);

  private TestOpenSearch() {}

  /**
   * The endpoint of an OpenSearch node's REST API, like {@code http://127.0.0.1:41234}, starting
   * the local one on first use and waiting until its cluster is green or yellow.
   *
   * @throws io.varve.local.LocalServerException if the local node cannot start; the message quotes
   *     its log
   */
  public static String endpoint() {
    return SERVER.get();
  }

  /** The directory of OpenSearch's jars that {@value #LIB_PROPERTY} names, if set and not empty. */
  public static Optional<Path> libDirectory() {
    return SharedTestServer.directory(LIB_PROPERTY);
  }

  private static String startLocal() {
    Path varveHome = VarveHome.locate();
    int httpPort = LocalMachine.freePort();
    LocalOpenSearchSettings.Builder builder =
        LocalOpenSearchSettings.forDevelopment(varveHome).toBuilder()
            .home(varveHome.resolve(".varve/test-opensearch-" + httpPort))
            .httpPort(httpPort)
            .transportPort(LocalMachine.freePortOtherThan(httpPort));
    libDirectory().ifPresent(builder::libDirectory);
    LocalOpenSearchSettings settings = builder.build();
    SharedTestServer.startUntilExit(
        new LocalOpenSearch(settings), STARTUP_TIMEOUT, SHUTDOWN_TIMEOUT, true);
    return settings.endpoint().toString();
  }
}
