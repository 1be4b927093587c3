package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.UsersCase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each bad input is refused with exit status 2, a message naming the key, and nothing written. */
class BadInputIT {
  @TempDir static Path dir;
  static CassandraFixture db;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_bad_input_it");
    db.execute("CREATE TABLE " + db.keyspace + ".ids_by_partnerid " + UsersCase.HISTORY_DDL);
    db.execute("CREATE TABLE " + db.keyspace + ".compact " + UsersCase.COMPACT_DDL);
    db.execute(
        "CREATE TABLE "
            + db.keyspace
            + ".with_note (partnerid text, id text,"
            + " seen_date timestamp, note text, PRIMARY KEY ((partnerid), id))");
    db.execute(
        "CREATE TABLE "
            + db.keyspace
            + ".with_region (region text, partnerid text,"
            + " id text, seen_date timestamp, PRIMARY KEY ((region, partnerid), id))");
    db.execute(
        "CREATE TABLE "
            + db.keyspace
            + ".text_date (partnerid text, id text,"
            + " seen_date text, PRIMARY KEY ((partnerid), id))");
    UsersCase.insert(db, "ids_by_partnerid", UsersCase.generate(20, 7));
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @AfterEach
  void nothingWasWritten() {
    for (String table : new String[] {"compact", "with_note", "with_region", "text_date"}) {
      assertThat(db.rows("SELECT * FROM " + db.keyspace + "." + table + " LIMIT 1"))
          .as("rows in " + table)
          .isEmpty();
    }
  }

  private CassandraFixture.Run migrate(String target, String extra) throws Exception {
    String yaml =
        db.side("source", "ids_by_partnerid", "")
            + db.side("target", target, "")
            + "savepoints:\n  path: "
            + dir.resolve("savepoints")
            + "\n"
            + extra;
    Path file = CassandraFixture.jobFile(dir, "bad", yaml);
    return CassandraFixture.cli("migrate", "--config", file.toString());
  }

  private static final String RENAME_AND_RULE =
      "renames:\n  - from: date\n    to: seen_date\n"
          + "reshape:\n  onConflict: keepMax\n  column: seen_date\n";

  private static void assertRefused(CassandraFixture.Run run, String... fragments) {
    assertThat(run.status()).as(run.all()).isEqualTo(2);
    assertThat(run.err()).contains(fragments).contains("nothing was written");
  }

  @Test
  void unknown_column_in_renames() throws Exception {
    assertRefused(
        migrate("compact", "renames:\n  - from: dat\n    to: seen_date\n"),
        "renames[0].from: dat (expected: a column of source table",
        "partnerid, date, id");
  }

  @Test
  void rename_to_a_column_the_target_lacks() throws Exception {
    assertRefused(
        migrate("compact", "renames:\n  - from: date\n    to: seen\n"),
        "renames[0].to: seen (expected: a column of target table");
  }

  @Test
  void target_column_with_no_source() throws Exception {
    assertRefused(
        migrate("with_note", RENAME_AND_RULE),
        "target column note: no source (expected: a value: a source column of the same name");
  }

  @Test
  void target_primary_key_column_that_nothing_fills() throws Exception {
    assertRefused(
        migrate("with_region", RENAME_AND_RULE),
        "target column region: no source (expected: a value for this primary-key column");
  }

  @Test
  void type_mismatch() throws Exception {
    assertRefused(
        migrate("text_date", RENAME_AND_RULE),
        "target column seen_date: text (expected: the type of source column date, timestamp");
  }

  @Test
  void source_column_with_no_target() throws Exception {
    assertRefused(
        migrate("compact", "reshape:\n  onConflict: keepMax\n  column: seen_date\n"),
        "source column date: no target column date",
        "add a renames entry, or list it under drop");
  }

  @Test
  void missing_source_table() throws Exception {
    String yaml = db.side("source", "no_such_table", "") + db.side("target", "compact", "");
    Path file = CassandraFixture.jobFile(dir, "missing-source", yaml);
    assertRefused(
        CassandraFixture.cli("migrate", "--config", file.toString()),
        "source.table: reshaper_bad_input_it.no_such_table does not exist");
  }

  @Test
  void missing_target_table() throws Exception {
    assertRefused(
        migrate("no_such_table", RENAME_AND_RULE),
        "target.table: reshaper_bad_input_it.no_such_table does not exist",
        "ids_by_partnerid");
  }

  @Test
  void an_unreachable_host_is_an_error_of_the_environment_exit_4_and_nothing_written()
      throws Exception {
    String yaml =
        db.side("source", "ids_by_partnerid", "")
            + db.side("target", "compact", "").replace("port: " + db.address.getPort(), "port: 1");
    Path file = CassandraFixture.jobFile(dir, "unreachable", yaml);

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", file.toString());

    assertThat(run.status()).as(run.all()).isEqualTo(4);
    assertThat(run.err())
        .contains("target.host: 127.0.0.1:1 unreachable")
        .contains("nothing was written");
  }

  @Test
  void collapsing_key_without_a_rule() throws Exception {
    assertRefused(
        migrate("compact", "renames:\n  - from: date\n    to: seen_date\n"),
        "reshape.onConflict: missing (expected: a rule");
  }

  @Test
  void rule_on_an_unknown_column() throws Exception {
    assertRefused(
        migrate(
            "compact",
            "renames:\n  - from: date\n    to: seen_date\n"
                + "reshape:\n  onConflict: keepMax\n  column: seen\n"),
        "reshape.column: seen");
  }

  @Test
  void where_the_source_rejects() throws Exception {
    String yaml =
        db.side("source", "ids_by_partnerid", "  where: nosuchcolumn = 1\n")
            + db.side("target", "compact", "")
            + RENAME_AND_RULE;
    Path file = CassandraFixture.jobFile(dir, "where", yaml);
    assertRefused(
        CassandraFixture.cli("migrate", "--config", file.toString()),
        "source.where: nosuchcolumn = 1");
  }

  @Test
  void unknown_key_in_the_file() throws Exception {
    CassandraFixture.Run run = migrate("compact", RENAME_AND_RULE + "reshap: {}\n");
    assertRefused(run, "reshap: unknown key (expected one of: source, target, renames,");
  }
}
