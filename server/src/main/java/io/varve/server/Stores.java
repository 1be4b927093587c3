package io.varve.server;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.events.CqlEventStore;
import io.varve.cassandra.kv.CqlChunkLog;
import io.varve.cassandra.kv.CqlItemReader;
import io.varve.cassandra.kv.CqlItemStore;
import io.varve.cassandra.kv.CqlItemTables;
import io.varve.cassandra.kv.CqlItemWriter;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.cassandra.routing.RoutedEventStore;
import io.varve.cassandra.routing.RoutedItemStore;
import io.varve.cassandra.routing.RoutedItemTables;
import io.varve.cassandra.routing.RoutedSliceTables;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.ItemTables;
import io.varve.core.limit.AsyncLimiter;
import io.varve.core.store.EventStore;
import io.varve.core.store.KeyspaceClusters;
import io.varve.core.store.SliceTables;
import io.varve.server.config.ServerSettings;
import java.time.Clock;
import java.util.Map;

/**
 * The server's stores over its Cassandra sessions. With no cluster in {@code cassandra.clusters},
 * they are the default cluster's stores themselves; otherwise each is routed by keyspace ({@link
 * KeyspaceClusters}) to its cluster's own store, built on that cluster's session once it is open.
 * Either way the clusters share one write budget and one read budget: what the server holds at once
 * must fit its heap, whichever cluster it goes to.
 */
final class Stores {

  private final ServerSettings settings;
  private final ClusterSessions sessions;
  private final KeyspaceClusters keyspaces;
  private final AsyncLimiter writes;
  private final AsyncLimiter reads = CqlEventStore.newReadLimiter();
  private final CqlSliceTables defaultTables;

  private Stores(ServerSettings settings, ClusterSessions sessions, KeyspaceClusters keyspaces) {
    this.settings = settings;
    this.sessions = sessions;
    this.keyspaces = keyspaces;
    this.writes =
        new AsyncLimiter(
            CqlEventStore.WRITES,
            settings.cassandra().maxInFlightWrites(),
            settings.cassandra().maxInFlightWriteBytes());
    this.defaultTables = sliceTables(ClusterSessions.DEFAULT, defaultSession());
  }

  static Stores of(ServerSettings settings, ClusterSessions sessions, KeyspaceClusters keyspaces) {
    return new Stores(settings, sessions, keyspaces);
  }

  private boolean routed() {
    return !sessions.names().isEmpty();
  }

  private CqlSession defaultSession() {
    return sessions.session(ClusterSessions.DEFAULT);
  }

  /** Where each keyspace lives, told by the namespace registry. */
  KeyspaceClusters keyspaces() {
    return keyspaces;
  }

  /** The write budget of both services on every cluster. */
  AsyncLimiter writes() {
    return writes;
  }

  /** The budget of partition reads on every cluster. */
  AsyncLimiter reads() {
    return reads;
  }

  /**
   * The session through which the chunk sweep looks at an item table of {@code keyspace}: its
   * cluster's. A keyspace no namespace this server knows has told the cluster of (its namespace
   * deleted before the server started, or not loaded yet) is looked for on every cluster: the one
   * whose schema has it, else the default one, whose schema says the table is gone (the entry is
   * then dropped); while a cluster cannot be reached, nobody can tell, and the entry waits.
   *
   * @throws io.varve.core.error.VarveException UNAVAILABLE while the cluster to look at cannot be
   *     reached
   */
  CqlSession sweepSession(String keyspace) {
    if (!routed()) {
      return defaultSession();
    }
    java.util.Optional<String> assigned = keyspaces.assigned(keyspace);
    if (assigned.isPresent()) {
      return sessions.session(assigned.get());
    }
    com.datastax.oss.driver.api.core.CqlIdentifier id =
        com.datastax.oss.driver.api.core.CqlIdentifier.fromInternal(keyspace);
    for (String cluster : sessions.names()) {
      CqlSession session = sessions.session(cluster); // UNAVAILABLE while out of reach
      if (session.getMetadata().getKeyspace(id).isPresent()) {
        return session;
      }
    }
    return defaultSession();
  }

  /**
   * Refuses, UNAVAILABLE, a keyspace on a cluster of {@code cassandra.clusters} that cannot be
   * reached now; the default cluster's keyspaces are never refused here (the fire-and-forget buffer
   * rides out their outages, as with one cluster).
   */
  void requireReachable(String keyspace) {
    if (routed()) {
      String cluster = keyspaces.cluster(keyspace);
      if (!cluster.isEmpty()) {
        sessions.requireReachable(cluster);
      }
    }
  }

  /** The default cluster's slice tables: the metadata keyspace's. */
  CqlSliceTables defaultTables() {
    return defaultTables;
  }

  SliceTables tables() {
    if (!routed()) {
      return defaultTables;
    }
    return new RoutedSliceTables(
        sessions,
        keyspaces,
        (name, session) -> name.isEmpty() ? defaultTables : sliceTables(name, session));
  }

  EventStore events() {
    int threshold = settings.cassandra().compressionThreshold();
    CqlEventStore onDefault = new CqlEventStore(defaultSession(), writes, reads, threshold);
    if (!routed()) {
      return onDefault;
    }
    return new RoutedEventStore(
        sessions,
        keyspaces,
        (name, session) ->
            name.isEmpty() ? onDefault : new CqlEventStore(session, writes, reads, threshold));
  }

  /** The item store; its chunk log (in the metadata keyspace) stays on the default cluster. */
  ItemStore items(CqlChunkLog chunkLog) {
    if (!routed()) {
      return items(defaultSession(), chunkLog);
    }
    return new RoutedItemStore(sessions, keyspaces, (name, session) -> items(session, chunkLog));
  }

  ItemTables itemTables() {
    if (!routed()) {
      return new CqlItemTables(defaultSession(), settings.cassandra().schemaTimeout());
    }
    return new RoutedItemTables(
        sessions,
        keyspaces,
        (name, session) -> new CqlItemTables(session, settings.cassandra().schemaTimeout()));
  }

  private ItemStore items(CqlSession session, CqlChunkLog chunkLog) {
    return new CqlItemStore(
        new CqlItemWriter(
            session,
            writes,
            settings.cassandra().compressionThreshold(),
            settings.kvChunks(),
            chunkLog,
            Clock.systemUTC()),
        new CqlItemReader(session, settings.kv(), settings.kvChunks().writeConcurrency()));
  }

  private CqlSliceTables sliceTables(String cluster, CqlSession session) {
    Map<String, String> replication =
        settings.clusters().stream()
            .filter(c -> c.name().equals(cluster))
            .map(c -> c.settings().replication())
            .findFirst()
            .orElse(settings.cassandra().replication());
    return new CqlSliceTables(session, replication, settings.cassandra().schemaTimeout());
  }
}
