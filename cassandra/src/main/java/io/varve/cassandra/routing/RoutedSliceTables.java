package io.varve.cassandra.routing;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.partitioning.CompactionPolicy;
import io.varve.core.partitioning.SliceHistogram;
import io.varve.core.store.KeyspaceClusters;
import io.varve.core.store.SliceTables;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * The slice tables of several clusters: each schema operation goes to the cluster holding its
 * keyspace, whose own replication creates the keyspace.
 */
public final class RoutedSliceTables implements SliceTables {

  private final ClusterRoutes<SliceTables> routes;

  /**
   * @param build a cluster's slice tables, from its name and session
   */
  public RoutedSliceTables(
      ClusterSessions sessions,
      KeyspaceClusters keyspaces,
      BiFunction<String, CqlSession, SliceTables> build) {
    this.routes = new ClusterRoutes<>(sessions, keyspaces, build);
  }

  @Override
  public CompletionStage<Void> createKeyspaceIfMissing(String keyspace) {
    return routes.call(keyspace, t -> t.createKeyspaceIfMissing(keyspace));
  }

  @Override
  public CompletionStage<Void> create(String keyspace, String table) {
    return routes.call(keyspace, t -> t.create(keyspace, table));
  }

  @Override
  public CompletionStage<Optional<String>> create(
      String keyspace, String table, CompactionPolicy.Open open, Duration writeLife) {
    return routes.call(keyspace, t -> t.create(keyspace, table, open, writeLife));
  }

  @Override
  public CompletionStage<Optional<String>> closedStrategy(
      String keyspace, CompactionPolicy.Closed closed) {
    return routes.call(keyspace, t -> t.closedStrategy(keyspace, closed));
  }

  @Override
  public CompletionStage<Void> compactClosed(
      String keyspace, String table, CompactionPolicy.Closed closed) {
    return routes.call(keyspace, t -> t.compactClosed(keyspace, table, closed));
  }

  @Override
  public CompletionStage<Optional<String>> compaction(String keyspace, String table) {
    return routes.call(keyspace, t -> t.compaction(keyspace, table));
  }

  @Override
  public CompletionStage<Boolean> exists(String keyspace, String table) {
    return routes.call(keyspace, t -> t.exists(keyspace, table));
  }

  @Override
  public SliceHistogram measure(String keyspace, String table, long maxRows, int sampleRows) {
    try {
      return routes.of(keyspace).measure(keyspace, table, maxRows, sampleRows);
    } catch (io.varve.core.error.StorageException e) {
      throw ClusterRoutes.named(routes.clusterOf(keyspace), e);
    }
  }

  @Override
  public CompletionStage<Boolean> hasRows(String keyspace, String table) {
    return routes.call(keyspace, t -> t.hasRows(keyspace, table));
  }

  @Override
  public CompletionStage<Void> drop(String keyspace, String table) {
    return routes.call(keyspace, t -> t.drop(keyspace, table));
  }
}
