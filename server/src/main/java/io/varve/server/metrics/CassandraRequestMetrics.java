package io.varve.server.metrics;

import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.varve.cassandra.session.ClusterSessions;
import java.util.concurrent.TimeUnit;

/**
 * Latency of every CQL request the server makes, as the driver saw it (retries and speculative
 * executions included): {@code varve_cassandra_requests_seconds} by {@code cluster} ({@code
 * default} or a name of {@code cassandra.clusters}: one tracker per cluster's session), {@code
 * operation} (read, write, other: schema and metadata) and {@code outcome} (success, error), in the
 * {@linkplain LatencyBuckets buckets} of the API's own timers. Beside {@code
 * varve_api_total_duration_seconds} it tells how much of a slow answer was spent waiting for
 * Cassandra.
 */
public final class CassandraRequestMetrics implements RequestTracker {

  private final Timer[][] timers = new Timer[Operation.values().length][2];

  /** The operation a request performs, from its statement. */
  enum Operation {
    READ,
    WRITE,
    OTHER;

    static Operation of(Request request) {
      if (request instanceof BatchStatement) {
        return WRITE;
      }
      String query;
      if (request instanceof BoundStatement bound) {
        query = bound.getPreparedStatement().getQuery();
      } else if (request instanceof SimpleStatement simple) {
        query = simple.getQuery();
      } else {
        return OTHER;
      }
      int start = 0;
      while (start < query.length() && Character.isWhitespace(query.charAt(start))) {
        start++;
      }
      if (verb(query, start, "SELECT")) {
        return READ;
      }
      if (verb(query, start, "INSERT")
          || verb(query, start, "UPDATE")
          || verb(query, start, "DELETE")) {
        return WRITE;
      }
      return OTHER;
    }

    /**
     * Whether the query's first word, from {@code start}, is {@code verb} in any case. Compared in
     * place: this runs on every CQL request, so it allocates nothing.
     */
    private static boolean verb(String query, int start, String verb) {
      int end = start + verb.length();
      return query.regionMatches(true, start, verb, 0, verb.length())
          && (end == query.length() || !Character.isLetter(query.charAt(end)));
    }
  }

  /** The tracker of the default cluster's session. */
  public CassandraRequestMetrics(MeterRegistry registry) {
    this(registry, ClusterSessions.DEFAULT_NAME);
  }

  /** The tracker of cluster {@code cluster}'s session. */
  public CassandraRequestMetrics(MeterRegistry registry, String cluster) {
    for (Operation operation : Operation.values()) {
      for (boolean success : new boolean[] {true, false}) {
        timers[operation.ordinal()][success ? 0 : 1] =
            Timer.builder("varve.cassandra.requests")
                .description("CQL requests of the server, as long as the driver waited for them")
                .tag("cluster", cluster)
                .tag("operation", operation.name().toLowerCase(java.util.Locale.ROOT))
                .tag("outcome", success ? "success" : "error")
                .register(registry);
      }
    }
  }

  @Override
  public void onSuccess(
      Request request,
      long latencyNanos,
      DriverExecutionProfile profile,
      Node node,
      String logPrefix) {
    record(request, latencyNanos, true);
  }

  @Override
  public void onError(
      Request request,
      Throwable error,
      long latencyNanos,
      DriverExecutionProfile profile,
      Node node,
      String logPrefix) {
    record(request, latencyNanos, false);
  }

  private void record(Request request, long latencyNanos, boolean success) {
    timers[Operation.of(request).ordinal()][success ? 0 : 1].record(
        latencyNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {}
}
