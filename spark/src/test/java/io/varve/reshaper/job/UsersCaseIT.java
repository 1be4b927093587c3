package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.UsersCase;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The users' case end to end: copy under a new name, compact, and a reshape across partitions. */
class UsersCaseIT {
  @TempDir static Path dir;
  static CassandraFixture db;
  static List<UsersCase.Row> rows;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_users_it");
    db.execute("CREATE TABLE " + db.keyspace + ".ids_by_partnerid " + UsersCase.HISTORY_DDL);
    db.execute(
        "CREATE TABLE " + db.keyspace + ".ids_by_partnerid_history " + UsersCase.HISTORY_DDL);
    db.execute(
        "CREATE TABLE " + db.keyspace + ".ids_by_partnerid_compact " + UsersCase.COMPACT_DDL);
    db.execute(
        "CREATE TABLE "
            + db.keyspace
            + ".last_seen_by_id (id text PRIMARY KEY,"
            + " partnerid text, seen_date timestamp)");
    rows = UsersCase.generate(400, 42);
    UsersCase.insert(db, "ids_by_partnerid", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private String job(String target, String extra) {
    return db.side("source", "ids_by_partnerid", "  splitCount: 16\n")
        + db.side("target", target, "")
        + "savepoints:\n  path: "
        + dir.resolve("savepoints")
        + "\n  intervalSeconds: 1\nprogress:\n  intervalSeconds: 1\n"
        + extra;
  }

  @Test
  void copies_the_history_table_under_its_new_name_row_for_row() throws Exception {
    Path file = CassandraFixture.jobFile(dir, "copy", job("ids_by_partnerid_history", ""));

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", file.toString());

    Set<UsersCase.Row> expected = new HashSet<>(rows);
    assertThat(run.status()).as(run.all()).isZero();
    assertThat(run.err()).contains("mode DIRECT");
    assertThat(run.out())
        .contains("migrate: done: ranges 16/16")
        .contains(String.format("rows read %,d", expected.size()));
    Set<UsersCase.Row> copied =
        db
            .rows("SELECT partnerid, id, date FROM " + db.keyspace + ".ids_by_partnerid_history")
            .stream()
            .map(r -> new UsersCase.Row(r.getString(0), r.getString(1), r.getInstant(2)))
            .collect(Collectors.toSet());
    assertThat(copied).isEqualTo(expected);

    CassandraFixture.Run again = CassandraFixture.cli("migrate", "--config", file.toString());
    assertThat(again.status()).isZero();
    assertThat(again.out()).contains("nothing to do: all 16 token ranges are recorded as done");

    db.execute(
        "DELETE FROM "
            + db.keyspace
            + ".ids_by_partnerid_history WHERE partnerid ="
            + " 'partner-1'");
    CassandraFixture.Run validate =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    long partnerOne = expected.stream().filter(r -> r.partnerid().equals("partner-1")).count();
    assertThat(validate.status()).isEqualTo(1);
    assertThat(validate.out()).contains("missing " + partnerOne + ", mismatched 0");
  }

  @Test
  void compacts_the_history_keeping_the_latest_date_as_seen_date() throws Exception {
    Path file =
        CassandraFixture.jobFile(
            dir,
            "compact",
            job(
                "ids_by_partnerid_compact",
                "renames:\n  - from: date\n    to: seen_date\nreshape:\n  onConflict: keepMax\n"
                    + "  column: seen_date\n"));

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", file.toString());

    assertThat(run.status()).as(run.all()).isZero();
    assertThat(run.err()).contains("mode IN_PARTITION").contains("onConflict keepMax");
    Map<String, Instant> compact = new TreeMap<>();
    for (Row r :
        db.rows(
            "SELECT partnerid, id, seen_date FROM " + db.keyspace + ".ids_by_partnerid_compact")) {
      compact.put(r.getString(0) + "/" + r.getString(1), r.getInstant(2));
    }
    assertThat(compact).isEqualTo(UsersCase.latestByPartnerAndId(rows));
  }

  @Test
  void groups_rows_of_different_partitions_by_target_key_deterministically() throws Exception {
    Path file =
        CassandraFixture.jobFile(
            dir,
            "by-id",
            job(
                "last_seen_by_id",
                "renames:\n  - from: date\n    to: seen_date\nreshape:\n  onConflict: keepMax\n"
                    + "  column: seen_date\n"));

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", file.toString());

    assertThat(run.status()).as(run.all()).isZero();
    assertThat(run.err()).contains("mode SHUFFLE");
    // every source row is counted once, through the shuffle that resolved it
    assertThat(run.out()).contains(String.format("rows read %,d,", rows.size()));
    // Latest date wins; on equal dates the greater partnerid (the row's bytes) wins.
    Map<String, UsersCase.Row> expected = new HashMap<>();
    for (UsersCase.Row r : rows) {
      expected.merge(
          r.id(),
          r,
          (a, b) -> {
            int c = a.date().compareTo(b.date());
            return c > 0 || (c == 0 && a.partnerid().compareTo(b.partnerid()) >= 0) ? a : b;
          });
    }
    Map<String, UsersCase.Row> actual = new HashMap<>();
    for (Row r :
        db.rows("SELECT id, partnerid, seen_date FROM " + db.keyspace + ".last_seen_by_id")) {
      actual.put(
          r.getString(0), new UsersCase.Row(r.getString(1), r.getString(0), r.getInstant(2)));
    }
    assertThat(actual).isEqualTo(expected);

    CassandraFixture.Run validate =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(validate.status()).as(validate.all()).isZero();
    assertThat(validate.out()).contains("missing 0, mismatched 0");
  }
}
