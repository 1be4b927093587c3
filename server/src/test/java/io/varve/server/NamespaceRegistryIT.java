package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.cassandra.metadata.CqlMetadataStore;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.core.partitioning.TimeSlice;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.config.ServerSettings;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Another server's registry over the same metadata keyspace, on the real test Cassandra: a
 * namespace it read while the namespace's slices were not written yet (the server creating it had
 * written its record only) is served with its slices as soon as they exist, not from its next
 * refresh (up to {@code timeseries.sliceMaintenanceInterval} later, during which its writes were
 * refused "no slice yet" and its reads found nothing).
 */
class NamespaceRegistryIT {

  static final String META = "varve_registry_it";
  static final String NS = "registry_race";

  static TestServer server;
  static CqlMetadataStore store;

  @BeforeAll
  static void start() {
    server = new TestServer(ServerSettings.defaults(), META, "registry_it");
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + NS
                + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\","
                + " \"physical_storage\": {\"dataset\": \"registry_it\"}}]}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    CqlSliceTables tables =
        new CqlSliceTables(
            server.cql,
            ServerSettings.defaults().cassandra().replication(),
            Duration.ofSeconds(30));
    store = CqlMetadataStore.open(server.cql, META, tables, Duration.ofSeconds(30));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static boolean holdsNow(TimeSlice slice) {
    return slice.contains(Instant.now().toEpochMilli());
  }

  @Test
  void a_namespace_cached_before_its_slices_existed_is_served_with_them_once_they_do() {
    List<TimeSlice> slices = store.slices(NS).toCompletableFuture().join();
    assertThat(slices).anyMatch(NamespaceRegistryIT::holdsNow);
    NamespaceRegistry other =
        new NamespaceRegistry(
            store,
            new NamespaceConfigMapper(META),
            8,
            32,
            new SimpleMeterRegistry(),
            Clock.systemUTC());
    try {
      // the record without its slices: what another server reads while this one creates it
      slices.forEach(s -> store.removeSlice(s).toCompletableFuture().join());
      assertThat(other.get(NS).toCompletableFuture().join().slices()).isEmpty();

      slices.forEach(s -> store.putSlice(s).toCompletableFuture().join());
      NamespaceEntry served = other.get(NS).toCompletableFuture().join();
      assertThat(served.slices())
          .as("read again at once, as none of the cached slices held now")
          .anyMatch(NamespaceRegistryIT::holdsNow);
      assertThat(other.get(NS).toCompletableFuture().join())
          .as("cached from then on")
          .isSameAs(served);
    } finally {
      slices.forEach(s -> store.putSlice(s).toCompletableFuture().join());
    }
  }
}
