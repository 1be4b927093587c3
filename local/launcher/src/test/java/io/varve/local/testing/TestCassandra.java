package io.varve.local.testing;

import io.varve.local.LocalServerStatus;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;

/**
 * The Cassandra that integration tests of every module share: one server per test run, never
 * started twice. Tests create their own keyspace on it, one per test class.
 *
 * <p>If the system property {@value #ADDRESS_PROPERTY} is set to {@code host:port}, that server is
 * used as it is. Otherwise the local test instance ({@link LocalCassandraSettings#forTests}, CQL on
 * 127.0.0.1:19042, home {@code .varve/test-cassandra}) is started if it is not running and left
 * running after the tests, so that the next run skips the startup. Stop it with {@code ./varve
 * local cassandra stop --tests}.
 *
 * <p>Uses the JDK only, so any test classpath can take it. Thread-safe.
 */
public final class TestCassandra {

  /** System property naming an external server, {@code host:port}; empty = the local one. */
  public static final String ADDRESS_PROPERTY = "varve.test.cassandra";

  /** System property naming the external server's local data center; default datacenter1. */
  public static final String DATACENTER_PROPERTY = "varve.test.cassandra.datacenter";

  private static final int CQL_PORT = 9042;
  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);
  private static final SharedTestServer<InetSocketAddress> SERVER =
      new SharedTestServer<>(
          ADDRESS_PROPERTY, CQL_PORT, TestCassandra::address, TestCassandra::startLocal);

  private TestCassandra() {}

  /**
   * The address of a server that accepts CQL, starting the local test instance on first use and
   * waiting until it is ready.
   *
   * @throws io.varve.local.LocalServerException if the local instance cannot start; the message
   *     quotes its log
   */
  public static InetSocketAddress contactPoint() {
    return SERVER.get();
  }

  /** The data center name to give a driver's load balancing for {@link #contactPoint()}. */
  public static String localDatacenter() {
    String configured = System.getProperty(DATACENTER_PROPERTY, "").trim();
    return configured.isEmpty() ? LocalCassandraSettings.DATACENTER : configured;
  }

  private static InetSocketAddress startLocal() {
    LocalCassandra node = new LocalCassandra(LocalCassandraSettings.forTests(VarveHome.locate()));
    LocalServerStatus status = node.start();
    node.awaitReady(STARTUP_TIMEOUT);
    System.out.println(
        "TestCassandra: local Cassandra at "
            + status.address().getHostString()
            + ":"
            + status.address().getPort()
            + " (pid "
            + status.pid()
            + ", home "
            + node.settings().home()
            + ") is left running; stop it with: ./varve local cassandra stop --tests");
    return node.settings().cqlAddress();
  }

  /** {@code host:port}, or {@code host} for CQL's standard port. */
  static InetSocketAddress parse(String hostAndPort) {
    return address(SERVER.parse(hostAndPort));
  }

  private static InetSocketAddress address(URI hostAndPort) {
    return new InetSocketAddress(hostAndPort.getHost(), hostAndPort.getPort());
  }
}
