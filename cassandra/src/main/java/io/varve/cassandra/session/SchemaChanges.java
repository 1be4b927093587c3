package io.varve.cassandra.session;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.loadbalancing.NodeDistance;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.varve.core.error.Causes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every schema change Varve makes (keyspaces, slice tables, item and chunk tables, its own metadata
 * tables), and the statements it prepares right after one.
 *
 * <p>The driver answers a schema change once the nodes agree on the schema as the node it is
 * connected to sees them through gossip, and skips nodes it has not marked up. On a cluster whose
 * nodes have just started, a node it skipped can still lack the new table; a statement prepared
 * there fails with "table ... does not exist". So after each change, every node this session sends
 * requests to is asked for its own schema version, until they are all the same or the timeout has
 * passed (then a warning, as the driver gives: the change was made, and a later statement may still
 * fail); and a statement prepared at start is retried while a node does not know its table yet.
 */
public final class SchemaChanges {

  private static final Logger LOG = LoggerFactory.getLogger(SchemaChanges.class);

  /** How often the schema versions are asked for again, and a prepare retried. */
  static final Duration POLL = Duration.ofMillis(100);

  private SchemaChanges() {}

  /** Runs a schema change, then waits until the nodes agree on the schema (at most timeout). */
  public static CompletionStage<AsyncResultSet> apply(
      CqlSession session, SimpleStatement change, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    return session
        .executeAsync(change.setTimeout(timeout))
        .thenCompose(rs -> agreement(session, change.getQuery(), deadline).thenApply(v -> rs));
  }

  /** As {@link #apply}, blocking; the driver's exception is thrown as it is. */
  public static AsyncResultSet applyNow(
      CqlSession session, SimpleStatement change, Duration timeout) {
    return Causes.join(apply(session, change, timeout));
  }

  /**
   * Prepares a statement on a table that was just created, retried while the node that prepares it
   * does not know the table yet, until the timeout.
   */
  public static PreparedStatement prepareNow(CqlSession session, String cql, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        return session.prepare(cql);
      } catch (InvalidQueryException e) {
        if (!unknownTable(e) || System.nanoTime() > deadline) {
          throw e;
        }
        LOG.info("a node does not know the table yet, preparing again: {}", e.getMessage());
        try {
          Thread.sleep(POLL.toMillis());
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /**
   * Cassandra says "table x does not exist", older versions and ScyllaDB "unconfigured table x".
   */
  static boolean unknownTable(InvalidQueryException e) {
    String message = String.valueOf(e.getMessage());
    return message.contains("does not exist") || message.contains("unconfigured table");
  }

  private static CompletionStage<Void> agreement(CqlSession session, String change, long deadline) {
    return versions(session)
        .handle((versions, error) -> error == null && versions.size() <= 1)
        .thenCompose(
            agreed -> {
              if (agreed) {
                return CompletableFuture.completedFuture(null);
              }
              if (System.nanoTime() > deadline) {
                LOG.warn(
                    "the nodes did not agree on the schema in time after: {}; statements on what"
                        + " it created may fail on some nodes until they do",
                    change);
                return CompletableFuture.completedFuture(null);
              }
              return CompletableFuture.runAsync(
                      () -> {},
                      CompletableFuture.delayedExecutor(POLL.toMillis(), TimeUnit.MILLISECONDS))
                  .thenCompose(v -> agreement(session, change, deadline));
            });
  }

  /**
   * The schema version of every node this session sends requests to (up, and not ignored by the
   * load balancing policy, such as another data center's nodes), each asked directly. The nodes it
   * does not use are left to the driver's own check, through the peers table.
   */
  private static CompletionStage<Set<UUID>> versions(CqlSession session) {
    List<CompletableFuture<AsyncResultSet>> asked = new ArrayList<>();
    for (Node node : session.getMetadata().getNodes().values()) {
      if (node.getState() == NodeState.UP && node.getDistance() != NodeDistance.IGNORED) {
        asked.add(
            session
                .executeAsync(
                    SimpleStatement.newInstance("SELECT schema_version FROM system.local")
                        .setNode(node))
                .toCompletableFuture());
      }
    }
    return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> {
              Set<UUID> versions = new HashSet<>();
              for (CompletableFuture<AsyncResultSet> answer : asked) {
                Row row = answer.join().one();
                versions.add(row == null ? null : row.getUuid(0));
              }
              return versions;
            });
  }
}
