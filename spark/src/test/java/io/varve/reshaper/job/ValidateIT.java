package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.UsersCase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Validation through a rename and a changed primary key finds a deleted and an altered row. */
class ValidateIT {
  @TempDir static Path dir;
  static CassandraFixture db;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_validate_it");
    db.execute("CREATE TABLE " + db.keyspace + ".ids_by_partnerid " + UsersCase.HISTORY_DDL);
    db.execute("CREATE TABLE " + db.keyspace + ".compact " + UsersCase.COMPACT_DDL);
    UsersCase.insert(db, "ids_by_partnerid", UsersCase.generate(100, 11));
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void finds_a_deleted_and_an_altered_row_and_copies_the_missing_one() throws Exception {
    String yaml =
        db.side("source", "ids_by_partnerid", "  splitCount: 8\n")
            + db.side("target", "compact", "")
            + "savepoints:\n  path: "
            + dir.resolve("sp")
            + "\n"
            + "renames:\n  - from: date\n    to: seen_date\n"
            + "reshape:\n  onConflict: keepMax\n  column: seen_date\n";
    Path file = CassandraFixture.jobFile(dir, "job", yaml);
    assertThat(CassandraFixture.cli("migrate", "--config", file.toString()).status()).isZero();
    CassandraFixture.Run clean =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(clean.status()).as(clean.all()).isZero();
    assertThat(clean.out()).contains("missing 0, mismatched 0");

    String table = db.keyspace + ".compact";
    db.execute(
        "DELETE FROM "
            + table
            + " WHERE partnerid = 'partner-3' AND id IN ("
            + "'"
            + firstId("partner-3")
            + "')");
    String altered = firstId("partner-7");
    db.execute(
        "UPDATE "
            + table
            + " SET seen_date = '1999-01-01T00:00:00Z' WHERE"
            + " partnerid = 'partner-7' AND id = '"
            + altered
            + "'");

    CassandraFixture.Run found =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(found.status()).as(found.all()).isEqualTo(1);
    assertThat(found.out())
        .contains("missing 1, mismatched 1")
        .contains("missing: {partnerid='partner-3', id='" + firstIdDeleted + "'}")
        .contains("mismatched: {partnerid='partner-7', id='" + altered + "'} seen_date expected")
        .contains("got '1999-01-01T00:00:00.000Z'");

    CassandraFixture.Run copy =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString(), "--copy-missing");
    assertThat(copy.out())
        .contains("missing 1, mismatched 1, missing rows copied 1, only in target 0");
    CassandraFixture.Run after =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(after.out()).contains("missing 0, mismatched 1");
    assertThat(after.status()).isEqualTo(1);
  }

  @Test
  void compares_writetimes_floats_and_timestamps_within_tolerances_and_finds_target_only_rows()
      throws Exception {
    String ddl = "(k int PRIMARY KEY, price double, at timestamp, note text)";
    db.execute("CREATE TABLE " + db.keyspace + ".measures " + ddl);
    db.execute("CREATE TABLE " + db.keyspace + ".measures_copy " + ddl);
    long writetime = 1_700_000_000_000_000L;
    for (int k = 0; k < 50; k++) {
      db.execute(
          "INSERT INTO "
              + db.keyspace
              + ".measures (k, price, at, note) VALUES ("
              + k
              + ", "
              + k
              + ".5, '2024-01-01T00:00:00.100Z', 'n"
              + k
              + "') USING TIMESTAMP "
              + writetime);
    }
    String yaml =
        db.side("source", "measures", "  splitCount: 8\n  preserveTimestamps: true\n")
            + db.side("target", "measures_copy", "")
            + "savepoints:\n  path: "
            + dir.resolve("sp-measures")
            + "\nvalidation:\n"
            + "  compareTimestamps: true\n"
            + "  writetimeToleranceMillis: 1000\n"
            + "  floatingPointTolerance: 0.01\n"
            + "  timestampMsTolerance: 5\n"
            + "  failuresToFetch: 20\n";
    Path file = CassandraFixture.jobFile(dir, "measures", yaml);
    CassandraFixture.Run copy = CassandraFixture.cli("migrate", "--config", file.toString());
    assertThat(copy.status()).as(copy.all()).isZero();
    String target = db.keyspace + ".measures_copy";
    // within the tolerances: a writetime 0.5 s later, a price 0.001 off, a timestamp 2 ms off
    db.execute(
        "UPDATE "
            + target
            + " USING TIMESTAMP "
            + (writetime + 500_000)
            + " SET note = 'n1' WHERE k = 1");
    db.execute(
        "UPDATE "
            + target
            + " USING TIMESTAMP "
            + writetime
            + " SET price = 2.501, at = '2024-01-01T00:00:00.102Z' WHERE k = 2");
    CassandraFixture.Run within =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(within.status()).as(within.all()).isZero();
    assertThat(within.out()).contains("rows checked 50, missing 0, mismatched 0, only in target 0");

    // beyond them: a writetime 5 s later, a price 0.1 off; and a row the source does not have
    db.execute(
        "UPDATE "
            + target
            + " USING TIMESTAMP "
            + (writetime + 5_000_000)
            + " SET note = 'n3' WHERE k = 3");
    db.execute(
        "UPDATE " + target + " USING TIMESTAMP " + writetime + " SET price = 4.6 WHERE k = 4");
    db.execute("INSERT INTO " + target + " (k, note) VALUES (777, 'mine')");
    CassandraFixture.Run beyond =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(beyond.status()).as(beyond.all()).isEqualTo(1);
    assertThat(beyond.out())
        .contains("rows checked 50, missing 0, mismatched 2, only in target 1")
        .contains(
            "mismatched: {k=3} note writetime expected "
                + writetime
                + " got "
                + (writetime + 5_000_000))
        .contains("mismatched: {k=4} price expected 4.5 got 4.6")
        .contains("only in target: {k=777}");
  }

  private static String firstIdDeleted;

  private static String firstId(String partner) {
    List<com.datastax.oss.driver.api.core.cql.Row> rows =
        db.rows(
            "SELECT id FROM "
                + db.keyspace
                + ".compact WHERE partnerid = '"
                + partner
                + "' LIMIT 1");
    String id = rows.get(0).getString(0);
    if (partner.equals("partner-3")) {
      firstIdDeleted = id;
    }
    return id;
  }
}
