package io.varve.cassandra.session;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.varve.core.error.VarveException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's sessions: the default cluster's, opened before the server starts (the control plane
 * lives there, so a server that cannot reach it does not start), and one per cluster of {@code
 * cassandra.clusters}, opened in the background and opened again until it succeeds, so that a
 * cluster down when the server starts degrades only its namespaces. Once open, a session stays: the
 * driver reconnects to its nodes itself, and a cluster that goes down later fails its requests as
 * the default cluster's do.
 */
public final class ClusterSessions implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ClusterSessions.class);

  /** The name by which the default cluster is reported; namespaces name it with an empty name. */
  public static final String DEFAULT = "";

  /**
   * The name by which {@link #health()} and the metrics report the default cluster; no cluster of
   * {@code cassandra.clusters} may take it.
   */
  public static final String DEFAULT_NAME = "default";

  /**
   * What {@code /health} says of a cluster.
   *
   * @param reachable whether the server holds connections to at least one of its nodes
   * @param nodesUp the nodes it holds connections to
   * @param nodes the nodes it knows (0 before its session opened)
   * @param error why it is not reachable
   */
  public record Health(boolean reachable, int nodesUp, int nodes, Optional<String> error) {}

  /** How long after a failed attempt a cluster's session is opened again. */
  static final Duration RETRY = Duration.ofSeconds(5);

  /** How often a cluster that stays out of reach is logged at warn (every attempt at debug). */
  static final Duration WARN_EVERY = Duration.ofMinutes(1);

  /**
   * What the server knows of a cluster now.
   *
   * @param session its session, once opened
   * @param error why the last attempt to open it failed, while it has none
   * @param since when the state began
   */
  public record State(Optional<CqlSession> session, Optional<String> error, Instant since) {}

  private final CqlSession defaultSession;
  private final Map<String, CassandraSettings> settings = new LinkedHashMap<>();
  private final Map<String, State> states = new ConcurrentHashMap<>();
  private final Map<String, Instant> lastWarning = new ConcurrentHashMap<>();
  private final Function<String, List<RequestTracker>> trackers;
  private final ScheduledExecutorService retries;
  private final Clock clock;
  private volatile boolean closed;

  /**
   * @param defaultSession the default cluster's session, already open
   * @param clusters the other clusters, opened from now on
   * @param trackers those told of every request of a cluster's session (the metrics), by the
   *     cluster's name
   */
  public ClusterSessions(
      CqlSession defaultSession,
      List<CassandraCluster> clusters,
      Function<String, List<RequestTracker>> trackers,
      Clock clock) {
    this.defaultSession = defaultSession;
    this.trackers = trackers;
    this.clock = clock;
    this.retries =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "varve-cluster-sessions");
              t.setDaemon(true);
              // the driver loads its configuration through it; the thread that first schedules a
              // retry is one of the driver's own, which has none
              t.setContextClassLoader(ClusterSessions.class.getClassLoader());
              return t;
            });
    for (CassandraCluster c : clusters) {
      settings.put(c.name(), c.settings());
      states.put(c.name(), new State(Optional.empty(), Optional.of("connecting"), clock.instant()));
      open(c.name());
    }
  }

  private void open(String name) {
    if (closed) {
      return;
    }
    CompletionStage<CqlSession> opening;
    try {
      opening = Sessions.open(settings.get(name), trackers.apply(name));
    } catch (RuntimeException e) {
      // a stage is the usual way; a throw must not end the retries either
      opening = CompletableFuture.failedFuture(e);
    }
    opening.whenComplete(
        (session, error) -> {
          if (error == null) {
            if (closed) {
              session.closeAsync();
              return;
            }
            states.put(name, new State(Optional.of(session), Optional.empty(), clock.instant()));
            log.info("cassandra cluster {}: connected", name);
            return;
          }
          Throwable cause =
              error instanceof CompletionException && error.getCause() != null
                  ? error.getCause()
                  : error;
          String why = String.valueOf(cause.getMessage());
          Instant now = clock.instant();
          states.put(name, new State(Optional.empty(), Optional.of(why), now));
          String message =
              "cassandra cluster {} cannot be reached ({}); its namespaces answer UNAVAILABLE,"
                  + " trying again every {}s";
          Instant warned = lastWarning.get(name);
          if (warned != null && now.isBefore(warned.plus(WARN_EVERY))) {
            log.debug(message, name, why, RETRY.toSeconds());
          } else {
            lastWarning.put(name, now);
            log.warn(message, name, why, RETRY.toSeconds());
          }
          if (!closed) {
            retries.schedule(() -> retry(name), RETRY.toMillis(), TimeUnit.MILLISECONDS);
          }
        });
  }

  private void retry(String name) {
    try {
      open(name);
    } catch (Throwable t) {
      log.error("cassandra cluster {}: opening its session failed", name, t);
      if (!closed) {
        retries.schedule(() -> retry(name), RETRY.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /** The names of the clusters other than the default one, in the configuration's order. */
  public List<String> names() {
    return List.copyOf(settings.keySet());
  }

  /**
   * The session of cluster {@code name} ({@link #DEFAULT} for the default one).
   *
   * @throws VarveException UNAVAILABLE naming the cluster and why, while its session is not open;
   *     FAILED_PRECONDITION for a name the configuration does not have
   */
  public CqlSession session(String name) {
    if (name.isEmpty()) {
      return defaultSession;
    }
    State state = states.get(name);
    if (state == null) {
      throw VarveException.failedPrecondition(
          "cassandra cluster '"
              + name
              + "' is not in this server's cassandra.clusters (expected one of: "
              + String.join(", ", settings.keySet())
              + ")");
    }
    // the driver's error names nodes' addresses: it goes to the log and /health, not to clients
    return state
        .session()
        .orElseThrow(
            () ->
                new VarveException(
                    VarveException.Kind.UNAVAILABLE,
                    "cassandra cluster '"
                        + name
                        + "' cannot be reached (not connected since "
                        + state.since()
                        + "; the server keeps trying); retrying is safe"));
  }

  /**
   * Refuses a cluster of {@code cassandra.clusters} that the server cannot reach now: its session
   * is not open, or the driver holds connections to none of its nodes.
   *
   * @throws VarveException UNAVAILABLE naming the cluster and why; as {@link #session} for a name
   *     the configuration does not have
   */
  public void requireReachable(String name) {
    Health health = health(session(name));
    if (!health.reachable()) {
      throw new VarveException(
          VarveException.Kind.UNAVAILABLE,
          "cassandra cluster '"
              + (name.isEmpty() ? DEFAULT_NAME : name)
              + "' cannot be reached (no node is up; the driver is reconnecting); retrying is"
              + " safe");
    }
  }

  /** The session of cluster {@code name} ({@link #DEFAULT} too) once open; empty until then. */
  public Optional<CqlSession> opened(String name) {
    if (name.isEmpty()) {
      return Optional.of(defaultSession);
    }
    State state = states.get(name);
    return state == null ? Optional.empty() : state.session();
  }

  /**
   * Every cluster's health now: the default one first, as {@link #DEFAULT_NAME}, then the others in
   * the configuration's order.
   */
  public Map<String, Health> health() {
    Map<String, Health> all = new LinkedHashMap<>();
    all.put(DEFAULT_NAME, health(defaultSession));
    settings
        .keySet()
        .forEach(
            name -> {
              State state = states.get(name);
              all.put(
                  name,
                  state
                      .session()
                      .map(ClusterSessions::health)
                      .orElseGet(
                          () -> new Health(false, 0, 0, state.error().or(() -> Optional.of("")))));
            });
    return all;
  }

  private static Health health(CqlSession session) {
    int up = 0;
    int nodes = 0;
    for (Node node : session.getMetadata().getNodes().values()) {
      nodes++;
      if (node.getState() == NodeState.UP) {
        up++;
      }
    }
    return new Health(
        up > 0,
        up,
        nodes,
        up > 0
            ? Optional.empty()
            : Optional.of("no node is up (" + nodes + " known); the driver is reconnecting"));
  }

  /** Every other cluster's state now, by name, in the configuration's order. */
  public Map<String, State> states() {
    Map<String, State> all = new LinkedHashMap<>();
    settings.keySet().forEach(name -> all.put(name, states.get(name)));
    return all;
  }

  @Override
  public void close() {
    closed = true;
    retries.shutdownNow();
    states.values().forEach(s -> s.session().ifPresent(CqlSession::close));
  }
}
