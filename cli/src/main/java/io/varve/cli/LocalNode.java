package io.varve.cli;

import io.varve.local.LocalServer;
import io.varve.local.LocalServerStatus;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.opensearch.LocalOpenSearch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * A local server run beside the Varve server of {@code varve up}: the local Cassandra or the local
 * OpenSearch, each its own process run by the launcher ({@code local/launcher}), with its data and
 * logs under {@code .varve/}. {@code up} starts these, {@code down} stops them and {@code status}
 * reports them, all through this one view.
 */
final class LocalNode {

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final LocalServer server;
  private final String name;
  private final String addressKey;
  private final String address;
  private final Path log;

  private LocalNode(LocalServer server, String name, String addressKey, String address, Path log) {
    this.server = server;
    this.name = name;
    this.addressKey = addressKey;
    this.address = address;
    this.log = log;
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
        node.settings().systemLog());
  }

  static LocalNode opensearch(LocalOpenSearch node) {
    return new LocalNode(
        node,
        node.product().label(),
        "endpoint",
        node.settings().endpoint().toString(),
        node.settings().systemLog());
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
   * Stops the node if it runs (SIGTERM, then SIGKILL after a minute) and returns whether it ran.
   */
  boolean stop() {
    return server.stop(STOP_TIMEOUT);
  }

  /** Whether its process runs, from its pid file and the live processes. */
  boolean isRunning() {
    return server.status().isRunning();
  }

  /**
   * The line of {@code status}: {@code <name>: running pid=N <addressKey>=<address>} once the node
   * answers, {@code starting pid=N ...} before, else {@code <name>: stopped}, or {@code stale} for
   * a pid file left behind by a crash.
   */
  String describe() {
    LocalServerStatus now = server.status();
    if (!now.isRunning()) {
      return name() + ": " + now.state().name().toLowerCase(Locale.ROOT);
    }
    return name()
        + ": "
        + (server.isReady() ? "running" : "starting")
        + " pid="
        + now.pid()
        + " "
        + addressKey
        + "="
        + address;
  }
}
