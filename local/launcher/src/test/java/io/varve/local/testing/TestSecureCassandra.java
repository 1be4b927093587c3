package io.varve.local.testing;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A single Cassandra node that takes TLS only on its CQL port and asks for a password, for the
 * integration tests of TLS and authentication end to end: home {@code
 * .varve/test-cassandra-secure}, CQL 127.0.0.1:24042 (storage 24000, JMX 24199), heap 512m, the
 * certificates and passwords of {@code .varve/test-secure} ({@link LocalCassandraSecurity},
 * generated on first use; clients log in as role {@value LocalCassandraSecurity#ROLE}).
 *
 * <p>A node already running is used as it is and left running; otherwise it is started and stopped
 * when the JVM exits. Uses the JDK only. Thread-safe.
 */
public final class TestSecureCassandra {

  private static LocalCassandra node;

  private TestSecureCassandra() {}

  /**
   * The running secure node, started on first use; it accepts the role's login when this returns.
   */
  public static synchronized LocalCassandra get() {
    if (node == null) {
      Path varveHome = VarveHome.locate();
      LocalCassandra secure =
          new LocalCassandra(
              LocalCassandraSettings.forTests(varveHome).toBuilder()
                  .home(varveHome.resolve(".varve/test-cassandra-secure"))
                  .ports(24042, 24000, 24199)
                  .heapSize("512m")
                  .security(new LocalCassandraSecurity(varveHome.resolve(".varve/test-secure")))
                  .build());
      if (!secure.status().isRunning()) {
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(() -> secure.stop(Duration.ofMinutes(1)), "test-secure-cassandra-stop"));
      }
      node = secure;
    }
    node.start();
    node.awaitReady(Duration.ofMinutes(3));
    return node;
  }

  /** Its CQL address. */
  public static InetSocketAddress contactPoint() {
    return get().settings().cqlAddress();
  }

  /** Its certificates, stores and passwords. */
  public static LocalCassandraSecurity security() {
    return get().settings().security().orElseThrow();
  }
}
