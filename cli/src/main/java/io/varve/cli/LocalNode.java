package io.varve.cli;

import io.varve.local.CassandraStatus;
import io.varve.local.LocalCassandra;
import io.varve.local.LocalOpenSearch;
import io.varve.local.OpenSearchStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A local server run beside the Varve server of {@code varve up}: the local Cassandra or the local OpenSearch, each
 * its own process run by the launcher ({@code local/launcher}), with its data and logs under {@code .varve/}.
 * {@code up} starts these, {@code down} stops them and {@code status} reports them, all through this one view.
 */
final class LocalNode {

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final String name;
  private final String addressKey;
  private final String address;
  private final Path home;
  private final Path log;
  private final Runnable start;
  private final Consumer<Duration> awaitReady;
  private final BooleanSupplier ready;
  private final Predicate<Duration> stop;
  private final Supplier<Status> status;

  private LocalNode(String name, String addressKey, String address, Path home, Path log, Runnable start,
      Consumer<Duration> awaitReady, BooleanSupplier ready, Predicate<Duration> stop, Supplier<Status> status) {
    this.name = name;
    this.addressKey = addressKey;
    this.address = address;
    this.home = home;
    this.log = log;
    this.start = start;
    this.awaitReady = awaitReady;
    this.ready = ready;
    this.stop = stop;
    this.status = status;
  }

  static LocalNode cassandra(LocalCassandra node) {
    return new LocalNode("cassandra", "cql", node.settings().cqlAddress().getHostString() + ":"
        + node.settings().cqlPort(), node.settings().home(), node.settings().systemLog(),
        node::start, node::awaitReady, node::isReady, node::stop, () -> {
          CassandraStatus status = node.status();
          return new Status(status.isRunning(), status.state(), status.pid());
        });
  }

  static LocalNode opensearch(LocalOpenSearch node) {
    return new LocalNode("opensearch", "endpoint", node.settings().endpoint().toString(), node.settings().home(),
        node.settings().systemLog(), node::start, node::awaitReady, node::isReady, node::stop, () -> {
          OpenSearchStatus status = node.status();
          return new Status(status.isRunning(), status.state(), status.pid());
        });
  }

  /** {@code cassandra} or {@code opensearch}: the first word of every line printed about the node. */
  String name() {
    return name;
  }

  /** Where clients reach it: {@code 127.0.0.1:9042}, {@code http://127.0.0.1:9200}. */
  String address() {
    return address;
  }

  /** Its directory: configuration, data (kept across restarts), logs, pid file. */
  Path home() {
    return home;
  }

  /** Its main log. */
  Path log() {
    return log;
  }

  /** Launches the node unless it runs, without waiting for it to answer; fails if it cannot be launched. */
  void start() {
    start.run();
  }

  /** Waits until the node answers; fails, quoting the end of its log, if it exits or does not answer in 3 minutes. */
  void awaitReady() {
    awaitReady.accept(READY_TIMEOUT);
  }

  /** Stops the node if it runs (SIGTERM, then SIGKILL after a minute) and returns whether it ran. */
  boolean stop() {
    return stop.test(STOP_TIMEOUT);
  }

  /** Whether its process runs, from its pid file and the live processes. */
  boolean isRunning() {
    return status.get().running();
  }

  /**
   * The line of {@code status}: {@code <name>: running pid=N <addressKey>=<address>} once the node answers,
   * {@code starting pid=N ...} before, else {@code <name>: stopped}, or {@code stale} for a pid file left behind by
   * a crash.
   */
  String describe() {
    Status now = status.get();
    if (!now.running()) {
      return name + ": " + now.state().name().toLowerCase(Locale.ROOT);
    }
    return name + ": " + (ready.getAsBoolean() ? "running" : "starting") + " pid=" + now.pid() + " " + addressKey
        + "=" + address;
  }

  /** What the launcher says of a node: whether it runs, its state ({@code RUNNING}, {@code STOPPED}, {@code STALE}), pid. */
  private record Status(boolean running, Enum<?> state, long pid) {}
}
