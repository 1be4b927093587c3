package io.varve.cassandra.routing;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.error.StorageException;
import io.varve.core.error.VarveException;
import io.varve.core.store.KeyspaceClusters;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One instance of a store per cluster, built on the cluster's session the first time a keyspace of
 * that cluster is used, and the instance for each keyspace by {@link KeyspaceClusters}. The default
 * cluster's instance is built at once.
 *
 * @param <T> the store
 */
final class ClusterRoutes<T> {

  private final ClusterSessions sessions;
  private final KeyspaceClusters keyspaces;
  private final BiFunction<String, CqlSession, T> build;
  private final Map<String, T> built = new ConcurrentHashMap<>();

  /**
   * @param build the store of a cluster, from its name ({@link KeyspaceClusters#DEFAULT} for the
   *     default one) and its open session
   */
  ClusterRoutes(
      ClusterSessions sessions,
      KeyspaceClusters keyspaces,
      BiFunction<String, CqlSession, T> build) {
    this.sessions = sessions;
    this.keyspaces = keyspaces;
    this.build = build;
    onCluster(KeyspaceClusters.DEFAULT);
  }

  /**
   * The instance of the cluster holding {@code keyspace}.
   *
   * @throws VarveException UNAVAILABLE while that cluster cannot be reached, FAILED_PRECONDITION
   *     when this server's configuration does not name it
   */
  T of(String keyspace) {
    return onCluster(keyspaces.cluster(keyspace));
  }

  /** The cluster holding {@code keyspace}, by name; {@link KeyspaceClusters#DEFAULT} by default. */
  String clusterOf(String keyspace) {
    return keyspaces.cluster(keyspace);
  }

  private T onCluster(String cluster) {
    T store = built.get(cluster);
    if (store != null) {
      return store;
    }
    CqlSession session = sessions.session(cluster);
    return built.computeIfAbsent(cluster, name -> build.apply(name, session));
  }

  /**
   * {@code call} on the instance of {@code keyspace}'s cluster; its refusal as a failed stage, and
   * a failure of a cluster other than the default one naming it.
   */
  <R> CompletionStage<R> call(String keyspace, Function<T, CompletionStage<R>> call) {
    T store;
    try {
      store = of(keyspace);
    } catch (VarveException e) {
      return CompletableFuture.failedFuture(e);
    }
    return named(clusterOf(keyspace), call.apply(store));
  }

  /** {@code stage}, a storage failure of {@code cluster} (other than the default) naming it. */
  static <R> CompletionStage<R> named(String cluster, CompletionStage<R> stage) {
    if (cluster.isEmpty()) {
      return stage;
    }
    return stage
        .handle(
            (value, error) -> {
              if (error == null) {
                return CompletableFuture.completedFuture(value);
              }
              return CompletableFuture.<R>failedFuture(named(cluster, error));
            })
        .thenCompose(s -> s);
  }

  /** {@code error}, a storage failure of {@code cluster} (other than the default) naming it. */
  static Throwable named(String cluster, Throwable error) {
    Throwable cause =
        error instanceof java.util.concurrent.CompletionException && error.getCause() != null
            ? error.getCause()
            : error;
    return cause instanceof VarveException failure ? named(cluster, failure) : cause;
  }

  /** {@code failure}, when a storage failure of {@code cluster} (not the default), naming it. */
  static VarveException named(String cluster, VarveException failure) {
    if (!cluster.isEmpty() && failure instanceof StorageException storage) {
      return storage.in("cassandra cluster '" + cluster + "'");
    }
    return failure;
  }
}
