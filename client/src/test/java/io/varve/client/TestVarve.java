package io.varve.client;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.api.common.v1.EndpointSlo;
import io.varve.api.common.v1.LatencySlo;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.local.testing.TestCassandra;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * A Varve server for one test class, on the test Cassandra, with its own metadata keyspace; the
 * keyspaces the class uses are dropped first.
 */
final class TestVarve implements AutoCloseable {

  final VarveServer server;

  TestVarve(ServerSettings base, String metadataKeyspace, String... keyspaces) {
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
    this.server =
        VarveServer.start(
            base.toBuilder()
                .cassandra(
                    base.cassandra()
                        .withContactPoints(List.of(cassandra))
                        .withMetadataKeyspace(metadataKeyspace))
                .port(0)
                .shutdown(ServerSettings.Shutdown.AT_ONCE)
                .build());
  }

  TestVarve(String metadataKeyspace, String... keyspaces) {
    this(ServerSettings.defaults(), metadataKeyspace, keyspaces);
  }

  /** {@code 127.0.0.1:<port>}. */
  String endpoint() {
    return "127.0.0.1:" + server.port();
  }

  /** A TimeSeries namespace stored in keyspace {@code dataset}, default settings. */
  static CreateNamespaceRequest timeSeriesNamespace(String namespace, String dataset) {
    return CreateNamespaceRequest.newBuilder()
        .setNamespace(namespace)
        .addPersistenceConfiguration(
            PersistenceConfiguration.newBuilder()
                .setId("PRIMARY_STORAGE")
                .setPhysicalStorage(PhysicalStorage.newBuilder().setDataset(dataset)))
        .build();
  }

  /** A KeyValue namespace in {@code dataset.table} whose reads and writes have these objectives. */
  static CreateNamespaceRequest keyValueNamespace(
      String namespace, String dataset, String table, Duration target, Duration max) {
    LatencySlo latency =
        LatencySlo.newBuilder().setTarget(duration(target)).setMax(duration(max)).build();
    EndpointSlo slo = EndpointSlo.newBuilder().setLatency(latency).build();
    return CreateNamespaceRequest.newBuilder()
        .setNamespace(namespace)
        .setService("KEY_VALUE")
        .addPersistenceConfiguration(
            PersistenceConfiguration.newBuilder()
                .setId("PRIMARY_STORAGE")
                .setPhysicalStorage(
                    PhysicalStorage.newBuilder()
                        .setDataset(dataset)
                        .setTable(table)
                        .setConfig(
                            StorageConfig.newBuilder().putSlos("read", slo).putSlos("write", slo))))
        .build();
  }

  private static com.google.protobuf.Duration duration(Duration d) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(d.getSeconds())
        .setNanos(d.getNano())
        .build();
  }

  private static List<String> concat(String first, String... rest) {
    java.util.ArrayList<String> all = new java.util.ArrayList<>(List.of(rest));
    all.add(0, first);
    return all;
  }

  @Override
  public void close() {
    server.close();
  }
}
