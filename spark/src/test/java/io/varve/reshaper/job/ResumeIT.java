package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.ChildJob;
import io.varve.reshaper.UsersCase;
import io.varve.reshaper.plan.TokenRange;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job killed with SIGKILL after some ranges were recorded resumes on rerun: finished ranges are
 * not read again, and the target ends with exactly the source's rows.
 */
class ResumeIT {
  private static final int SPLITS = 32;
  @TempDir static Path dir;
  static CassandraFixture db;
  static List<UsersCase.Row> rows;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_resume_it");
    db.execute("CREATE TABLE " + db.keyspace + ".ids_by_partnerid " + UsersCase.HISTORY_DDL);
    db.execute(
        "CREATE TABLE " + db.keyspace + ".ids_by_partnerid_history " + UsersCase.HISTORY_DDL);
    rows = UsersCase.generate(600, 5);
    UsersCase.insert(db, "ids_by_partnerid", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void rerun_after_kill_9_skips_finished_ranges_and_loses_nothing() throws Exception {
    String common =
        db.side("source", "ids_by_partnerid", "  splitCount: " + SPLITS + "\n")
            + db.side("target", "ids_by_partnerid_history", "")
            + "savepoints:\n  path: "
            + dir.resolve("savepoints")
            + "\n  intervalSeconds: 0\n";
    Path slow =
        CassandraFixture.jobFile(dir, "slow", common + "rateLimit:\n  rowsPerSecond: 500\n");
    Path fast = CassandraFixture.jobFile(dir, "fast", common);
    Path savepoint =
        dir.resolve("savepoints")
            .resolve(
                db.keyspace
                    + ".ids_by_partnerid-to-"
                    + db.keyspace
                    + ".ids_by_partnerid_history.savepoint");

    List<Integer> done = ChildJob.killAfter(slow, dir.resolve("child.log"), savepoint, 4);
    assertThat(done).hasSizeBetween(4, SPLITS - 1);
    long rowsInDoneRanges = 0;
    List<TokenRange> ranges = TokenRange.split(SPLITS);
    for (int index : done) {
      TokenRange r = ranges.get(index);
      rowsInDoneRanges +=
          db.session
              .execute(
                  "SELECT count(*) FROM "
                      + db.keyspace
                      + ".ids_by_partnerid WHERE token(partnerid) > ? AND token(partnerid) <= ?",
                  r.start(),
                  r.end())
              .one()
              .getLong(0);
    }

    CassandraFixture.Run rerun = CassandraFixture.cli("migrate", "--config", fast.toString());

    Set<UsersCase.Row> expected = new HashSet<>(rows);
    assertThat(rerun.status()).as(rerun.all()).isZero();
    assertThat(rerun.out())
        .contains("(" + done.size() + " done by earlier runs)")
        .contains(String.format("rows read %,d,", expected.size() - rowsInDoneRanges));
    Set<UsersCase.Row> copied =
        db
            .rows("SELECT partnerid, id, date FROM " + db.keyspace + ".ids_by_partnerid_history")
            .stream()
            .map(r -> new UsersCase.Row(r.getString(0), r.getString(1), r.getInstant(2)))
            .collect(Collectors.toSet());
    assertThat(copied).isEqualTo(expected);
    assertThat(ChildJob.doneRanges(savepoint)).hasSize(SPLITS);
  }
}
