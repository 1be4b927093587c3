package io.varve.perf.environment;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.dynamodb.LocalDynamoDb;
import io.varve.local.dynamodb.LocalDynamoDbSettings;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The world of one benchmark run, shared by every benchmark of {@code varve perf}: the local
 * servers it uses (each started unless it already runs, and then stopped at the end), the clients
 * and processes it opens, and the {@link Cleanup} that undoes all of it once, in reverse order, at
 * {@link #close()} or on Ctrl-C.
 *
 * <p>Depends on the JDK and the launcher only, so that it loads on the CLI's classpath and on
 * Spark's alike; the Varve server and its clients are in {@link VarveServer}. Progress lines go to
 * standard error, prefixed with the benchmark's name; figures are the benchmark's own business. Not
 * thread-safe, except for the cleanup.
 */
public final class Environment implements AutoCloseable {

  /** How long a local server or the Varve server may take to answer after its start. */
  public static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);

  private final String name;
  private final Path home;
  private final PrintStream err;
  private final Cleanup cleanup;
  private final Thread hook;
  private final List<Runnable> awaitingReady = new ArrayList<>();

  private Environment(String name, Path home, PrintStream err) {
    this.name = name;
    this.home = home;
    this.err = err;
    this.cleanup = new Cleanup(name, err);
    this.hook =
        new Thread(
            () -> {
              if (cleanup.pending()) {
                progress("interrupted: stopping what the benchmark started");
              }
              cleanup.run();
            },
            name.replace(' ', '-') + "-cleanup");
  }

  /**
   * The environment of a run named {@code name} (e.g. {@code perf search}) in the Varve home
   * directory ({@link VarveHome#locate()}); its cleanup also runs if the JVM is stopped before
   * {@link #close()}. One run at a time on a machine ({@link RunLock}).
   *
   * @throws IllegalStateException when another run is under way
   */
  public static Environment open(String name) {
    Path home = VarveHome.locate();
    RunLock lock = RunLock.take(home, name);
    Environment environment = new Environment(name, home, System.err);
    environment.atEnd("release the benchmark lock", lock::close);
    Runtime.getRuntime().addShutdownHook(environment.hook);
    return environment;
  }

  /**
   * The Varve home directory: the repository root, holding {@code .varve/} and {@code
   * bench-results/}.
   */
  public Path home() {
    return home;
  }

  /** Prints a progress line on standard error: {@code <name>: <message>}. */
  public void progress(String message) {
    err.println(name + ": " + message);
  }

  /**
   * Adds an undo step, run at the end before every step added earlier; {@code what} completes
   * "could not ...".
   */
  public void atEnd(String what, Cleanup.Step step) {
    cleanup.add(what, step);
  }

  /**
   * Closes {@code resource} at the end (a client, a session), before what was opened earlier;
   * returns it.
   */
  public <T extends AutoCloseable> T closeAtEnd(String what, T resource) {
    cleanup.add(what, resource::close);
    return resource;
  }

  /**
   * Launches the development Cassandra ({@code .varve/cassandra}, CQL on 127.0.0.1:9042) unless it
   * runs.
   */
  public LocalServer cassandra() {
    LocalCassandra node = new LocalCassandra(LocalCassandraSettings.forDevelopment(home));
    String address = node.settings().cqlAddress().getHostString() + ":" + node.settings().cqlPort();
    return launch(
        "Cassandra",
        address,
        () -> node.status().isRunning(),
        () -> node.start().pid(),
        node::awaitReady,
        node::stop);
  }

  /**
   * Launches the development OpenSearch ({@code .varve/opensearch}, http://127.0.0.1:9200) unless
   * it runs. Launch it before Cassandra: it fails at once when no JDK 21+ is found, and then
   * nothing else has started.
   */
  public LocalServer openSearch() {
    LocalOpenSearch node = new LocalOpenSearch(LocalOpenSearchSettings.forDevelopment(home));
    return launch(
        "OpenSearch",
        node.settings().endpoint().toString(),
        () -> node.status().isRunning(),
        () -> node.start().pid(),
        node::awaitReady,
        node::stop);
  }

  /**
   * Launches the development DynamoDB Local ({@code .varve/dynamodb}, http://127.0.0.1:8000) unless
   * it runs.
   */
  public LocalServer dynamoDb() {
    LocalDynamoDb node = new LocalDynamoDb(LocalDynamoDbSettings.forDevelopment(home));
    return launch(
        "DynamoDB Local",
        node.settings().endpoint().toString(),
        () -> node.status().isRunning(),
        () -> node.start().pid(),
        node::awaitReady,
        node::stop);
  }

  /**
   * Waits until every local server launched so far answers, so that servers launched one after the
   * other start side by side; fails, quoting the end of its log, if one exits or does not answer in
   * {@link #START_TIMEOUT}.
   */
  public void awaitReady() {
    awaitingReady.forEach(Runnable::run);
    awaitingReady.clear();
  }

  private LocalServer launch(
      String server,
      String address,
      BooleanSupplier running,
      LongSupplier start,
      Consumer<Duration> awaitReady,
      Predicate<Duration> stop) {
    boolean startedHere = !running.getAsBoolean();
    if (startedHere) {
      progress("starting the local " + server + " (" + address + ")");
      atEnd("stop the local " + server, () -> stop.test(STOP_TIMEOUT));
    }
    long pid = start.getAsLong();
    awaitingReady.add(() -> awaitReady.accept(START_TIMEOUT));
    return new LocalServer(server, address, startedHere, pid);
  }

  /**
   * Runs the cleanup: closes, stops and drops what the run opened, started and created, the last
   * first.
   */
  @Override
  public void close() {
    cleanup.run();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is shutting down: the hook runs, and finds nothing left to do
    }
  }
}
