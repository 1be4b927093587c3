package io.varve.server.controlplane;

import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvNamespace;
import io.varve.server.config.NamespaceConfigMapper;

/**
 * What an UpdateNamespace may not change in a KeyValue namespace: its table and the table's
 * clustering order, both fixed when the table was created (the keyspace is checked for both
 * services by the handler). Consistency, the cache and the latency objectives may change.
 */
final class KvNamespaceChanges {

  private KvNamespaceChanges() {}

  static void check(UpdateNamespaceRequest request, KvNamespace current, KvNamespace next) {
    int primary = 0;
    while (!request
        .getPersistenceConfiguration(primary)
        .getId()
        .equals(NamespaceConfigMapper.PRIMARY)) {
      primary++;
    }
    String path = "persistence_configuration[" + primary + "].physicalStorage";
    if (!next.table().equals(current.table())) {
      throw new InvalidFieldException(
          path + ".table",
          next.table(),
          "the namespace's table '" + current.table() + "' (it cannot change)");
    }
    if (next.order() != current.order()) {
      throw new InvalidFieldException(
          path + ".config.clusteringOrder",
          next.order().name(),
          current.order().name() + " (the table's clustering order cannot change)");
    }
  }
}
