package io.varve.cli;

import io.varve.local.LocalServer;
import io.varve.local.LocalServerStatus;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.server.LocalVarveServer;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A local server of {@code varve up}: the local Cassandra, the local OpenSearch or the Varve server
 * itself, each its own process run by the launcher ({@code local/launcher}), with its data and logs
 * under {@code .varve/}. {@code up} starts these, {@code down} stops them and {@code status}
 * reports them, all through this one view.
 *
 * <p>A pid file is never trusted alone: the launcher signals or reports a process only if its
 * command line runs the server's main class with this very home, so a pid file naming any other
 * process (left behind by a crash, its pid reused since, even after a reboot) is stale: reported as
 * such and removed by {@link #stop()}, its process never signalled.
 */
final class LocalNode {

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration SERVER_STOP_TIMEOUT = Duration.ofSeconds(30);

  private final LocalServer server;
  private final String name;
  private final String addressKey;
  private final String address;
  private final Path log;
  private final Duration stopTimeout;
  private final String stopped;

  private LocalNode(
      LocalServer server,
      String name,
      String addressKey,
      String address,
      Path log,
      Duration stopTimeout,
      String stopped) {
    this.server = server;
    this.name = name;
    this.addressKey = addressKey;
    this.address = address;
    this.log = log;
    this.stopTimeout = stopTimeout;
    this.stopped = stopped;
  }

  static LocalNode cassandra(LocalCassandra node) {
    return cassandra(node, node.product().label());
  }

  /** Node {@code n} of a local cluster: {@code cassandra node<n>}. */
  static LocalNode clusterNode(LocalCassandra node, int n) {
    return cassandra(node, node.product().label() + " node" + n);
  }

  private static LocalNode cassandra(LocalCassandra node, String name) {
    return new LocalNode(
        node,
        name,
        "cql",
        node.settings().cqlAddress().getHostString() + ":" + node.settings().cqlPort(),
        node.settings().systemLog(),
        STOP_TIMEOUT,
        "stopped");
  }

  static LocalNode opensearch(LocalOpenSearch node) {
    return new LocalNode(
        node,
        node.product().label(),
        "endpoint",
        node.settings().endpoint().toString(),
        node.settings().systemLog(),
        STOP_TIMEOUT,
        "stopped");
  }

  /**
   * Server {@code k} of {@code up} ({@code up --servers N}): {@code varve} for the first, else
   * {@code varve server<k>}; its API at {@code api=}; {@code status} says {@code not running} when
   * it does not run.
   */
  static LocalNode server(LocalVarveServer server, int k) {
    return new LocalNode(
        server,
        server.product().label() + (k == 1 ? "" : " server" + k),
        "api",
        server.settings().endpoint().toString(),
        server.settings().log(),
        SERVER_STOP_TIMEOUT,
        "not running");
  }

  /**
   * {@code cassandra}, {@code cassandra node2} or {@code opensearch}: how every line printed about
   * the node starts.
   */
  String name() {
    return name;
  }

  /** Where clients reach it: {@code 127.0.0.1:9042}, {@code http://127.0.0.1:9200}. */
  String address() {
    return address;
  }

  /** Its directory: configuration, data (kept across restarts), logs, pid file. */
  Path home() {
    return server.home();
  }

  /** Its main log. */
  Path log() {
    return log;
  }

  /**
   * Launches the node unless it runs, without waiting for it to answer; fails if it cannot be
   * launched.
   */
  void start() {
    server.start();
  }

  /**
   * Waits until the node answers; fails, quoting the end of its log, if it exits or does not answer
   * in 3 minutes.
   */
  void awaitReady() {
    server.awaitReady(READY_TIMEOUT);
  }

  /**
   * Waits until the node has started: for a node of a Cassandra cluster, until it answers CQL,
   * which it does once it has joined the ring (the next node may then join), before its role can
   * log in (see {@link LocalCassandra#answersCql()}); for any other, until it is ready.
   */
  void awaitStarted() {
    if (server instanceof LocalCassandra cassandra) {
      cassandra.awaitCql(READY_TIMEOUT);
    } else {
      awaitReady();
    }
  }

  /**
   * Stops the node if it runs (SIGTERM, then SIGKILL after a minute, 30 s for the server) and says
   * what it did, the line of {@code down}: {@code <name>: stopped pid=N <addressKey>=<address>},
   * {@code <name>: was not running}, or, for a pid file naming a process that does not run this
   * home's, that the stale pid file was removed and nothing signalled.
   *
   * @throws io.varve.local.LocalServerException if the pid file cannot be removed or the process
   *     outlives SIGKILL
   */
  String stop() {
    LocalServerStatus before = server.status();
    boolean ran = server.stop(stopTimeout);
    if (ran) {
      return name + ": stopped pid=" + before.pid() + " " + addressKey + "=" + address;
    }
    if (before.state() == LocalServerStatus.State.STALE) {
      return name
          + ": removed its stale pid file "
          + server.pidFile()
          + " ("
          + stale(before)
          + "; nothing signalled)";
    }
    return name + ": was not running";
  }

  /** Whether its process runs, from its pid file and the live processes. */
  boolean isRunning() {
    return server.status().isRunning();
  }

  /** The node as it is now: its pid file checked against the live processes, and its answer. */
  Seen look() {
    LocalServerStatus now = server.status();
    return new Seen(now, now.isRunning() && server.isReady());
  }

  /**
   * The node at one moment.
   *
   * @param status its pid file checked against the live processes
   * @param ready whether it answered, if it runs
   */
  record Seen(LocalServerStatus status, boolean ready) {

    /** Whether it runs and answers. */
    boolean isUp() {
      return status.isRunning() && ready;
    }
  }

  /** The line of {@code status} for the node as it is now: {@link #describe(Seen)}. */
  String describe() {
    return describe(look());
  }

  /**
   * The line of {@code status}: {@code <name>: running pid=N <addressKey>=<address>} once the node
   * answers, {@code starting pid=N ...} before; else {@code <name>: stopped <addressKey>=<address>}
   * ({@code not running} for the server), or {@code <name>: stale pid file (pid N is not this
   * home's Cassandra)} for a pid file naming a process that does not run this home's server, such
   * as one left behind by a crash whose pid was reused since.
   */
  String describe(Seen seen) {
    LocalServerStatus now = seen.status();
    String where = addressKey + "=" + address;
    return switch (now.state()) {
      case RUNNING ->
          name + ": " + (seen.ready() ? "running" : "starting") + " pid=" + now.pid() + " " + where;
      case STALE -> name + ": stale pid file (" + stale(now) + ") " + where;
      case STOPPED -> name + ": " + stopped + " " + where;
    };
  }

  /**
   * Why a pid file is stale: {@code pid 4242 does not run this home's Cassandra} (the process
   * ended, or the pid now names another process).
   */
  private static String stale(LocalServerStatus status) {
    return status.pid() == 0
        ? "it holds no pid"
        : "pid " + status.pid() + " does not run this home's " + status.product().displayName();
  }
}
