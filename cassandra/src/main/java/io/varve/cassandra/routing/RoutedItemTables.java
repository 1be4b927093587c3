package io.varve.cassandra.routing;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.kv.ItemTables;
import io.varve.core.kv.KvNamespace;
import io.varve.core.store.KeyspaceClusters;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/** The item tables of several clusters: each on the cluster holding its namespace's keyspace. */
public final class RoutedItemTables implements ItemTables {

  private final ClusterRoutes<ItemTables> routes;

  /**
   * @param build a cluster's item tables, from its name and session
   */
  public RoutedItemTables(
      ClusterSessions sessions,
      KeyspaceClusters keyspaces,
      BiFunction<String, CqlSession, ItemTables> build) {
    this.routes = new ClusterRoutes<>(sessions, keyspaces, build);
  }

  @Override
  public CompletionStage<Void> create(KvNamespace namespace) {
    return routes.call(namespace.keyspace(), t -> t.create(namespace));
  }

  @Override
  public CompletionStage<Void> drop(KvNamespace namespace) {
    return routes.call(namespace.keyspace(), t -> t.drop(namespace));
  }
}
