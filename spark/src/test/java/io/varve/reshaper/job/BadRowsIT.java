package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRowsFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad row lands in the bad-rows file, more than a thousand from one task, and a replay of the
 * file writes them once their cause is gone. The cause here: a target keyspace with three replicas
 * on a one-node cluster, where no write reaches LOCAL_QUORUM until the keyspace is altered to one
 * replica.
 */
class BadRowsIT {
  private static final int ROWS = 1_500;
  private static final String TARGET_KEYSPACE = "reshaper_bad_rows_it_target";
  @TempDir static Path dir;
  static CassandraFixture db;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_bad_rows_it");
    db.execute("CREATE TABLE " + db.keyspace + ".notes (k int PRIMARY KEY, note text)");
    var insert =
        db.session.prepare("INSERT INTO " + db.keyspace + ".notes (k, note)" + " VALUES (?, ?)");
    List<CompletionStage<?>> pending = new ArrayList<>();
    for (int k = 0; k < ROWS; k++) {
      pending.add(
          db.session.executeAsync(
              insert.bind(k, "note " + k + (k % 100 == 0 ? "\nwith 'quotes'" : ""))));
      if (pending.size() == 64 || k == ROWS - 1) {
        pending.forEach(f -> f.toCompletableFuture().join());
        pending.clear();
      }
    }
    db.execute("DROP KEYSPACE IF EXISTS " + TARGET_KEYSPACE);
    db.execute(
        "CREATE KEYSPACE "
            + TARGET_KEYSPACE
            + " WITH replication = {'class':"
            + " 'SimpleStrategy', 'replication_factor': 3}");
    db.execute("CREATE TABLE " + TARGET_KEYSPACE + ".notes (k int PRIMARY KEY, note text)");
  }

  @AfterAll
  static void close() {
    db.execute("DROP KEYSPACE IF EXISTS " + TARGET_KEYSPACE);
    db.close();
  }

  @Test
  void more_than_a_thousand_bad_rows_of_one_task_all_land_in_the_file_and_replay_writes_them()
      throws Exception {
    Path badRows = dir.resolve("notes.bad-rows");
    String yaml =
        db.side("source", "notes", "  splitCount: 1\n")
            // the connector's driver would retry each failed write 60 times first
            + db.side(
                "target",
                TARGET_KEYSPACE,
                "notes",
                "  options:\n    spark.cassandra.query.retry.count: 0\n")
            + "savepoints:\n  path: "
            + dir.resolve("savepoints")
            + "\n"
            + "failures:\n  maxBadRows: 10000\n  retries: 0\n  badRowsPath: "
            + badRows
            + "\n";
    Path job = CassandraFixture.jobFile(dir, "notes", yaml);

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", job.toString());

    assertThat(run.status()).as(run.all()).isEqualTo(1);
    assertThat(run.out())
        .contains("rows read 1,500, rows written 1,500, bad rows 1,500")
        .contains("bad rows are in " + badRows);
    List<BadRow> written = BadRowsFile.read(badRows);
    assertThat(written).hasSize(ROWS).allSatisfy(r -> assertThat(r.error()).isNotBlank());
    assertThat(written.stream().map(BadRow::statement).distinct()).hasSize(ROWS);
    assertThat(db.rows("SELECT k FROM " + TARGET_KEYSPACE + ".notes")).isEmpty();

    db.execute(
        "ALTER KEYSPACE "
            + TARGET_KEYSPACE
            + " WITH replication = {'class':"
            + " 'SimpleStrategy', 'replication_factor': 1}");
    CassandraFixture.Run replay =
        CassandraFixture.cli("migrate", "replay", "--config", job.toString());

    assertThat(replay.status()).as(replay.all()).isZero();
    assertThat(replay.out()).contains("replay: done: rows 1,500, written 1,500, bad rows 0");
    assertThat(badRows).doesNotExist();
    assertThat(notes(TARGET_KEYSPACE)).isEqualTo(notes(db.keyspace));

    CassandraFixture.Run again =
        CassandraFixture.cli("migrate", "replay", "--config", job.toString());
    assertThat(again.status()).isZero();
    assertThat(again.out()).contains("replay: nothing to do: there is no bad-rows file");
  }

  private static Map<Integer, String> notes(String keyspace) {
    Map<Integer, String> notes = new TreeMap<>();
    db.rows("SELECT k, note FROM " + keyspace + ".notes")
        .forEach(r -> notes.put(r.getInt(0), r.getString(1)));
    return notes;
  }
}
