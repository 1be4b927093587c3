package io.varve.cassandra.routing;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.KvCommit;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvPart;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.RecordMutation;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ScanPosition;
import io.varve.core.kv.ScanSegment;
import io.varve.core.kv.ValueParts;
import io.varve.core.read.ResponseMemory;
import io.varve.core.store.KeyspaceClusters;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * The item store of several clusters: each call goes to the store of the cluster holding its
 * namespace's keyspace. A call for a cluster that cannot be reached fails UNAVAILABLE naming it.
 */
public final class RoutedItemStore implements ItemStore {

  private final ClusterRoutes<ItemStore> routes;

  /**
   * @param build a cluster's item store, from its name and session
   */
  public RoutedItemStore(
      ClusterSessions sessions,
      KeyspaceClusters keyspaces,
      BiFunction<String, CqlSession, ItemStore> build) {
    this.routes = new ClusterRoutes<>(sessions, keyspaces, build);
  }

  @Override
  public CompletionStage<Void> put(
      KvNamespace ns, String id, IdempotencyToken token, List<KvItem> items) {
    return routes.call(ns.keyspace(), s -> s.put(ns, id, token, items));
  }

  @Override
  public CompletionStage<Void> put(
      KvNamespace ns,
      String id,
      IdempotencyToken token,
      List<KvItem> items,
      List<KvPart> parts,
      List<KvCommit> commits) {
    return routes.call(ns.keyspace(), s -> s.put(ns, id, token, items, parts, commits));
  }

  @Override
  public CompletionStage<Void> delete(
      KvNamespace ns, String id, IdempotencyToken token, ItemPredicate predicate) {
    return routes.call(ns.keyspace(), s -> s.delete(ns, id, token, predicate));
  }

  @Override
  public CompletionStage<Void> mutate(
      KvNamespace ns, IdempotencyToken token, List<RecordMutation> records) {
    return routes.call(ns.keyspace(), s -> s.mutate(ns, token, records));
  }

  @Override
  public CompletionStage<ItemPage> read(
      KvNamespace ns,
      String id,
      ItemPredicate predicate,
      boolean values,
      int wantedRows,
      int firstRows,
      BytePage page,
      boolean raw,
      ReadBudget budget,
      ResponseMemory memory) {
    return routes.call(
        ns.keyspace(),
        s -> s.read(ns, id, predicate, values, wantedRows, firstRows, page, raw, budget, memory));
  }

  @Override
  public CompletionStage<byte[]> readPart(
      KvNamespace ns, String id, byte[] key, ValueParts parts, ResponseMemory memory) {
    return routes.call(ns.keyspace(), s -> s.readPart(ns, id, key, parts, memory));
  }

  @Override
  public CompletionStage<ScanPage> scan(
      KvNamespace ns,
      ScanSegment segment,
      ScanPosition after,
      boolean values,
      int wantedRows,
      BytePage page,
      ReadBudget budget,
      ResponseMemory memory) {
    return routes.call(
        ns.keyspace(), s -> s.scan(ns, segment, after, values, wantedRows, page, budget, memory));
  }
}
