package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.CassandraFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ScyllaDB migrator's example job file, every key it sets as it sets them (only the hosts,
 * ports and the savepoints directory made local), runs: its copy of {@code stocks.stocks}, with
 * timestamps preserved, over 256 ranges, and its validation section; each key without effect here
 * is named in a warning.
 */
class MigratorExampleIT {
  @TempDir static Path dir;
  static CassandraFixture db;

  @BeforeAll
  static void createTable() {
    db = new CassandraFixture("stocks");
    db.execute(
        "CREATE TABLE stocks.stocks (symbol text, day date, price decimal, volume bigint,"
            + " PRIMARY KEY (symbol, day))");
    for (int i = 0; i < 300; i++) {
      db.execute(
          "INSERT INTO stocks.stocks (symbol, day, price, volume) VALUES ('S"
              + (i % 37)
              + "', '"
              + java.time.LocalDate.of(2024, 1, 1).plusDays(i)
              + "', "
              + i
              + ".25, "
              + i * 1000
              + ") USING TIMESTAMP "
              + (1_700_000_000_000_000L + i));
    }
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void the_migrators_example_file_copies_and_validates_naming_the_keys_without_effect()
      throws Exception {
    String host = db.address.getHostString();
    int port = db.address.getPort();
    String example =
        "source:\n"
            + "  type: cassandra\n"
            + "  host: "
            + host
            + "\n  port: "
            + port
            + "\n  keyspace: stocks\n"
            + "  table: stocks\n"
            + "  consistencyLevel: LOCAL_QUORUM\n"
            + "  preserveTimestamps: true\n"
            + "  splitCount: 256\n"
            + "  connections: 8\n"
            + "  fetchSize: 1000\n"
            + "target:\n"
            + "  type: scylla\n"
            + "  host: "
            + host
            + "\n  port: "
            + port
            + "\n  keyspace: stocks\n"
            + "  table: stocks\n"
            + "  consistencyLevel: LOCAL_QUORUM\n"
            + "  connections: 16\n"
            + "  stripTrailingZerosForDecimals: false\n"
            + "savepoints:\n"
            + "  path: "
            + dir.resolve("savepoints")
            + "\n  intervalSeconds: 300\n"
            + "  enableParquetFileTracking: true\n";
    String validation =
        "validation:\n"
            + "  compareTimestamps: true\n"
            + "  ttlToleranceMillis: 60000\n"
            + "  writetimeToleranceMillis: 1000\n"
            + "  failuresToFetch: 100\n"
            + "  floatingPointTolerance: 0.001\n"
            + "  timestampMsTolerance: 0\n";
    Path job = CassandraFixture.jobFile(dir, "config", example + validation);

    CassandraFixture.Run copy = CassandraFixture.cli("migrate", "--config", job.toString());
    assertThat(copy.status()).as(copy.all()).isZero();
    assertThat(copy.out()).contains("ranges 256/256").contains("rows read 300,");
    assertThat(copy.err())
        .contains("warning: target.stripTrailingZerosForDecimals is accepted")
        .contains("warning: savepoints.enableParquetFileTracking is accepted");

    CassandraFixture.Run validate =
        CassandraFixture.cli("migrate", "validate", "--config", job.toString());
    assertThat(validate.status()).as(validate.all()).isZero();
    assertThat(validate.out()).contains("rows checked 300, missing 0, mismatched 0");
  }
}
