package io.varve.cassandra.routing;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.namespace.Consistency;
import io.varve.core.read.PartitionReader;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ScanBudget;
import io.varve.core.store.EventStore;
import io.varve.core.store.KeyspaceClusters;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The event store of several clusters: each call goes to the store of the cluster holding its
 * keyspace. A call for a cluster that cannot be reached fails UNAVAILABLE naming it, and touches no
 * other cluster.
 */
public final class RoutedEventStore implements EventStore {

  private final ClusterRoutes<EventStore> routes;

  /**
   * @param build a cluster's store, from its name and session (all of them sharing the server's
   *     write and read budgets)
   */
  public RoutedEventStore(
      ClusterSessions sessions,
      KeyspaceClusters keyspaces,
      BiFunction<String, CqlSession, EventStore> build) {
    this.routes = new ClusterRoutes<>(sessions, keyspaces, build);
  }

  @Override
  public CompletionStage<Map<Integer, VarveException>> write(
      String keyspace, Map<PartitionKey, List<PlacedEvent>> partitions, Consistency consistency) {
    return routes
        .call(keyspace, store -> store.write(keyspace, partitions, consistency))
        .thenApply(
            failed -> {
              String cluster = routes.clusterOf(keyspace);
              if (failed.isEmpty() || cluster.isEmpty()) {
                return failed;
              }
              // each event's failure names the cluster too
              Map<Integer, VarveException> named = new java.util.HashMap<>();
              failed.forEach(
                  (index, error) -> named.put(index, ClusterRoutes.named(cluster, error)));
              return named;
            });
  }

  @Override
  public PartitionReader reader(
      String keyspace,
      String timeSeriesId,
      Consistency consistency,
      ScanBudget budget,
      ReadBytes bytes) {
    try {
      PartitionReader reader =
          routes.of(keyspace).reader(keyspace, timeSeriesId, consistency, budget, bytes);
      String cluster = routes.clusterOf(keyspace);
      return cluster.isEmpty()
          ? reader
          : (scan, cursor, filters, maxEvents) ->
              ClusterRoutes.named(cluster, reader.read(scan, cursor, filters, maxEvents));
    } catch (VarveException e) {
      // every read of it fails, through the caller's usual path for a failed read
      return (scan, cursor, filters, maxEvents) -> CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletionStage<Long> scan(
      String keyspace,
      String table,
      long fromMillis,
      long toMillis,
      Consistency consistency,
      int batchSize,
      Function<List<Event>, CompletionStage<Void>> sink) {
    return routes.call(
        keyspace,
        store -> store.scan(keyspace, table, fromMillis, toMillis, consistency, batchSize, sink));
  }
}
