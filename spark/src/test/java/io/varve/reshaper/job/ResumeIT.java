package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.UsersCase;
import io.varve.reshaper.plan.TokenRange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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

    Process child = startChild(slow);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
      while (doneRanges(savepoint).size() < 4 && System.nanoTime() < deadline && child.isAlive()) {
        Thread.sleep(100);
      }
      assertThat(child.isAlive()).as("the job still runs when it is killed").isTrue();
    } finally {
      child.destroyForcibly(); // SIGKILL
      child.waitFor(30, TimeUnit.SECONDS);
    }
    List<Integer> done = doneRanges(savepoint);
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
    assertThat(doneRanges(savepoint)).hasSize(SPLITS);
  }

  private static Process startChild(Path job) throws Exception {
    Path jar = Path.of(System.getProperty("varve.reshaper.jar", "target/varve-reshaper.jar"));
    Path options = jar.getParent().getParent().resolve("jvm-options");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String line : Files.readAllLines(options)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        command.add(line.trim());
      }
    }
    command.addAll(
        List.of(
            "-cp",
            jar + ":" + jar.getParent().resolve("lib") + "/*",
            "io.varve.reshaper.cli.ReshaperCli",
            "migrate",
            "--config",
            job.toString()));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("child.log").toFile())
        .start();
  }

  private static List<Integer> doneRanges(Path savepoint) throws Exception {
    if (!Files.exists(savepoint)) {
      return List.of();
    }
    for (String line : Files.readAllLines(savepoint)) {
      if (line.startsWith("done=") && line.length() > 5) {
        return Arrays.stream(line.substring(5).split(",")).map(Integer::valueOf).toList();
      }
    }
    return List.of();
  }
}
