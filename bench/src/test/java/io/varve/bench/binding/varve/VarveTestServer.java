package io.varve.bench.binding.varve;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.testing.TestCassandra;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/** A Varve server of the bindings' tests on the test Cassandra, its keyspaces dropped first. */
final class VarveTestServer {

  private VarveTestServer() {}

  static VarveServer start(String metadataKeyspace, String... keyspaces) {
    InetSocketAddress cassandra = TestCassandra.contactPoint();
    try (CqlSession cql =
        CqlSession.builder()
            .addContactPoint(cassandra)
            .withLocalDatacenter("datacenter1")
            .build()) {
      for (String keyspace : concat(metadataKeyspace, keyspaces)) {
        cql.execute(
            SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                .setTimeout(Duration.ofSeconds(30)));
      }
    }
    ServerSettings base = ServerSettings.defaults();
    return VarveServer.start(
        base.toBuilder()
            .cassandra(
                base.cassandra()
                    .withContactPoints(List.of(cassandra))
                    .withMetadataKeyspace(metadataKeyspace))
            .port(0)
            .shutdown(ServerSettings.Shutdown.AT_ONCE)
            .build());
  }

  private static List<String> concat(String first, String... rest) {
    List<String> all = new java.util.ArrayList<>(List.of(first));
    all.addAll(List.of(rest));
    return all;
  }
}
