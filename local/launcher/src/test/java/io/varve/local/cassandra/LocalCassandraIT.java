package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.local.LocalServerStatus;
import io.varve.local.VarveHome;
import io.varve.local.testing.LocalMachine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Runs the real Cassandra from {@code local/cassandra-dist/target/lib} in a temporary home, on
 * ports beside both the developer's and the shared test instance.
 *
 * <p>About 40 s: it starts, stops, restarts and kills real nodes, which is what it tests.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalCassandraIT {

  private static final Duration STARTUP = Duration.ofMinutes(3);
  private static final Duration SHUTDOWN = Duration.ofMinutes(1);
  private static final int ROWS = 300;

  private static Path home;
  private static Path lib;
  private static LocalCassandraSettings settings;

  @BeforeAll
  static void temporaryHome() throws IOException {
    home = Files.createTempDirectory("varve-local-it");
    String libProperty = System.getProperty("varve.cassandra.lib", "");
    Path varveHome = VarveHome.locate();
    lib =
        libProperty.isEmpty()
            ? LocalCassandraSettings.defaultLibDirectory(varveHome)
            : Path.of(libProperty);
    settings =
        LocalCassandraSettings.forTests(varveHome).toBuilder()
            .home(home)
            .libDirectory(lib)
            .ports(29042, 27000, 27199)
            .build();
  }

  @AfterAll
  static void stopAndDelete() {
    new LocalCassandra(settings).stop(SHUTDOWN);
    LocalMachine.deleteTree(home);
  }

  @Test
  @Order(1)
  void distribution_holds_the_cassandra_version_the_build_declares() throws IOException {
    String version = System.getProperty("varve.cassandra.version", "5.0.9");
    try (Stream<Path> jars = Files.list(lib)) {
      assertThat(jars.map(jar -> jar.getFileName().toString()))
          .contains("cassandra-all-" + version + ".jar")
          .filteredOn(name -> name.startsWith("cassandra-all-"))
          .hasSize(1);
    }
  }

  @Test
  @Order(2)
  void starts_once_stops_and_restarts_on_its_data_directory() {
    LocalCassandra node = new LocalCassandra(settings);

    LocalServerStatus started = timed("first start", () -> startAndAwait(node));
    assertThat(started.isRunning()).isTrue();
    assertThat(node.status()).isEqualTo(started);
    assertThat(node.start().pid()).as("start of a running node").isEqualTo(started.pid());
    assertThat(home.resolve("data/system")).isDirectory();

    assertThat(node.stop(SHUTDOWN)).isTrue();
    assertThat(node.status().state()).isEqualTo(LocalServerStatus.State.STOPPED);
    ProcessHandle.of(started.pid())
        .ifPresent(
            process ->
                assertThat(process.onExit())
                    .as("process after stop")
                    .succeedsWithin(Duration.ofSeconds(10)));
    assertThat(node.isReady()).isFalse();

    LocalServerStatus restarted = timed("restart", () -> startAndAwait(node));
    assertThat(restarted.isRunning()).isTrue();
    assertThat(restarted.pid()).isNotEqualTo(started.pid());
  }

  @Test
  @Order(3)
  void acknowledged_writes_survive_a_sigkill_in_batch_and_group_modes() throws IOException {
    LocalCassandra batch = new LocalCassandra(settings);
    startAndAwait(batch);
    try (RawCqlConnection cql = RawCqlConnection.open(settings.cqlAddress())) {
      cql.execute(
          "CREATE KEYSPACE IF NOT EXISTS durability WITH replication ="
              + " {'class': 'SimpleStrategy', 'replication_factor': 1}");
      cql.execute("CREATE TABLE IF NOT EXISTS durability.acked (id int PRIMARY KEY, v text)");
      insertRows(cql, 0, ROWS);
    }
    assertThat(batch.kill()).isTrue();
    assertThat(batch.status().state()).isEqualTo(LocalServerStatus.State.STALE);

    LocalCassandra group =
        new LocalCassandra(
            settings.toBuilder().commitlogSync(CommitlogSync.group(Duration.ofMillis(5))).build());
    timed("restart after SIGKILL", () -> startAndAwait(group));
    try (RawCqlConnection cql = RawCqlConnection.open(settings.cqlAddress())) {
      assertThat(cql.count("SELECT count(*) FROM durability.acked")).isEqualTo(ROWS);
      insertRows(cql, ROWS, 2 * ROWS);
    }
    assertThat(group.kill()).isTrue();

    startAndAwait(batch);
    try (RawCqlConnection cql = RawCqlConnection.open(settings.cqlAddress())) {
      assertThat(cql.count("SELECT count(*) FROM durability.acked")).isEqualTo(2 * ROWS);
    }
  }

  private static void insertRows(RawCqlConnection cql, int from, int to) throws IOException {
    long began = System.nanoTime();
    for (int id = from; id < to; id++) {
      cql.execute("INSERT INTO durability.acked (id, v) VALUES (" + id + ", 'row " + id + "')");
    }
    System.out.printf(
        "LocalCassandraIT: %d acknowledged inserts took %.1f s%n",
        to - from, (System.nanoTime() - began) / 1e9);
  }

  private static LocalServerStatus startAndAwait(LocalCassandra node) {
    LocalServerStatus status = node.start();
    node.awaitReady(STARTUP);
    return status;
  }

  private static <T> T timed(String what, java.util.function.Supplier<T> action) {
    long began = System.nanoTime();
    T result = action.get();
    System.out.printf(
        "LocalCassandraIT: %s took %.1f s%n", what, (System.nanoTime() - began) / 1e9);
    return result;
  }
}
