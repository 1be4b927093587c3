package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRowsFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Timestamps, constants, drop, where, bad rows, conflict rules and compaction control. */
class FeaturesIT {
  @TempDir static Path dir;
  static CassandraFixture db;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_features_it");
    String ks = db.keyspace;
    db.execute("CREATE TABLE " + ks + ".cells (k int PRIMARY KEY, a text, b text)");
    db.execute("CREATE TABLE " + ks + ".cells_copy (k int PRIMARY KEY, a text, b text)");
    db.execute(
        "INSERT INTO " + ks + ".cells (k, a) VALUES (1, 'x') USING TIMESTAMP 1000 AND TTL 86400");
    db.execute("UPDATE " + ks + ".cells USING TIMESTAMP 2000 SET b = 'y' WHERE k = 1");
    db.execute("INSERT INTO " + ks + ".cells (k, a, b) VALUES (2, 'z', 'w') USING TIMESTAMP 3000");

    db.execute("CREATE TABLE " + ks + ".tagged (k int PRIMARY KEY, tags set<text>)");
    db.execute("CREATE TABLE " + ks + ".tagged_copy (k int PRIMARY KEY, tags set<text>)");
    db.execute("INSERT INTO " + ks + ".tagged (k, tags) VALUES (1, {'a', 'b'})");

    db.execute("CREATE TABLE " + ks + ".legacy (k int PRIMARY KEY, a text, old text)");
    db.execute(
        "CREATE TABLE "
            + ks
            + ".regional (region text, k int, a text,"
            + " PRIMARY KEY ((region), k))");
    for (int k = 0; k < 20; k++) {
      db.execute(
          "INSERT INTO "
              + ks
              + ".legacy (k, a, old) VALUES ("
              + k
              + ", '"
              + (k % 2 == 0 ? "even" : "odd")
              + "', 'gone')");
    }

    db.execute("CREATE TABLE " + ks + ".notes (k int PRIMARY KEY, note text)");
    db.execute("CREATE TABLE " + ks + ".notes_by_note (k int, note text, PRIMARY KEY ((k), note))");
    String huge = "n".repeat(70_000);
    for (int k = 0; k < 30; k++) {
      db.execute(
          "INSERT INTO "
              + ks
              + ".notes (k, note) VALUES ("
              + k
              + ", '"
              + (k < 3 ? huge : "note " + k)
              + "')");
    }

    db.execute(
        "CREATE TABLE "
            + ks
            + ".events (p text, t int, id text, v text,"
            + " PRIMARY KEY ((p), t, id))");
    db.execute(
        "CREATE TABLE "
            + ks
            + ".latest (p text, id text, t int, v text,"
            + " PRIMARY KEY ((p), id))");
    db.execute(
        "INSERT INTO "
            + ks
            + ".events (p, t, id, v) VALUES ('p', 1, 'a', 'old-but-newest-write') USING TIMESTAMP 9000");
    db.execute(
        "INSERT INTO "
            + ks
            + ".events (p, t, id, v) VALUES ('p', 5, 'a', 'max-t') USING TIMESTAMP 5000");
    db.execute(
        "INSERT INTO "
            + ks
            + ".events (p, t, id, v) VALUES ('p', 3, 'a', 'middle') USING TIMESTAMP 1000");
    db.execute(
        "INSERT INTO "
            + ks
            + ".events (p, t, id, v) VALUES ('p', 2, 'b', 'alone') USING TIMESTAMP 1000");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static CassandraFixture.Run migrate(
      String name, String source, String target, String extra, String... more) throws Exception {
    return migrateWith(
        name,
        source,
        "  splitCount: 4\n"
            + (extra.contains("preserveTimestamps") ? "  preserveTimestamps: true\n" : ""),
        target,
        extra.replace("preserveTimestamps\n", ""),
        more);
  }

  /** Runs {@code migrate} with these lines in the source section and {@code extra} after it. */
  private static CassandraFixture.Run migrateWith(
      String name, String source, String sourceExtra, String target, String extra, String... more)
      throws Exception {
    String yaml =
        db.side("source", source, sourceExtra)
            + db.side("target", target, "")
            + "savepoints:\n  path: "
            + dir.resolve("sp-" + name)
            + "\n"
            + extra;
    Path file = CassandraFixture.jobFile(dir, name, yaml);
    String[] args = new String[more.length + 3];
    System.arraycopy(more, 0, args, 0, more.length);
    args[more.length] = "migrate";
    args[more.length + 1] = "--config";
    args[more.length + 2] = file.toString();
    return CassandraFixture.cli(args);
  }

  @Test
  void preserves_writetime_and_ttl_of_each_cell() throws Exception {
    CassandraFixture.Run run = migrate("cells", "cells", "cells_copy", "preserveTimestamps\n");
    assertThat(run.status()).as(run.all()).isZero();
    Row one =
        db.rows(
                "SELECT a, writetime(a), ttl(a), b, writetime(b), ttl(b) FROM "
                    + db.keyspace
                    + ".cells_copy WHERE k = 1")
            .get(0);
    assertThat(one.getString(0)).isEqualTo("x");
    assertThat(one.getLong(1)).isEqualTo(1000);
    assertThat(one.getInt(2)).isBetween(80_000, 86_400);
    assertThat(one.getString(3)).isEqualTo("y");
    assertThat(one.getLong(4)).isEqualTo(2000);
    assertThat(one.isNull(5)).isTrue();
    Row two =
        db.rows("SELECT writetime(a), writetime(b) FROM " + db.keyspace + ".cells_copy WHERE k = 2")
            .get(0);
    assertThat(two.getLong(0)).isEqualTo(3000);
    assertThat(two.getLong(1)).isEqualTo(3000);
  }

  @Test
  void non_frozen_collections_need_an_explicit_choice_to_preserve_timestamps() throws Exception {
    CassandraFixture.Run refused = migrate("tags", "tagged", "tagged_copy", "preserveTimestamps\n");
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.err())
        .contains(
            "source.preserveTimestamps: true (expected: no non-frozen"
                + " collection or UDT columns, but tags is set<text>")
        .contains("timestamps.nonFrozenCollections: currentTime");
    assertThat(db.rows("SELECT * FROM " + db.keyspace + ".tagged_copy")).isEmpty();

    CassandraFixture.Run run =
        migrate(
            "tags2",
            "tagged",
            "tagged_copy",
            "preserveTimestamps\ntimestamps:\n  nonFrozenCollections: currentTime\n");
    assertThat(run.status()).as(run.all()).isZero();
    assertThat(
            db.rows("SELECT tags FROM " + db.keyspace + ".tagged_copy WHERE k = 1")
                .get(0)
                .getSet(0, String.class))
        .containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void adds_constants_drops_columns_and_filters_with_where() throws Exception {
    CassandraFixture.Run run =
        migrateWith(
            "legacy",
            "legacy",
            "  splitCount: 4\n  where: a = 'even'\n",
            "regional",
            "constants:\n  region: eu-west\ndrop: [old]\n");
    assertThat(run.status()).as(run.all()).isZero();
    List<Row> rows = db.rows("SELECT region, k, a FROM " + db.keyspace + ".regional");
    assertThat(rows)
        .hasSize(10)
        .allSatisfy(
            r -> {
              assertThat(r.getString(0)).isEqualTo("eu-west");
              assertThat(r.getInt(1) % 2).isZero();
              assertThat(r.getString(2)).isEqualTo("even");
            });
  }

  @Test
  void bad_rows_are_counted_written_to_a_file_and_stop_the_job_past_the_threshold()
      throws Exception {
    Path badRows = dir.resolve("bad-rows.txt");
    CassandraFixture.Run tolerated =
        migrate(
            "notes",
            "notes",
            "notes_by_note",
            "failures:\n  maxBadRows: 5\n  retries: 1\n  badRowsPath: " + badRows + "\n");
    assertThat(tolerated.status()).as(tolerated.all()).isEqualTo(1);
    assertThat(tolerated.out()).contains("rows written 30, bad rows 3");
    List<BadRow> bad = BadRowsFile.read(badRows);
    assertThat(bad)
        .hasSize(3)
        .allSatisfy(
            r -> {
              assertThat(r.statement())
                  .startsWith(
                      "INSERT INTO " + db.keyspace + ".notes_by_note (k," + " note) VALUES (");
              assertThat(r.error()).contains("InvalidQueryException");
            });
    assertThat(db.rows("SELECT k FROM " + db.keyspace + ".notes_by_note")).hasSize(27);

    // a replay fails for the same reason, and the file keeps exactly the rows that still fail
    CassandraFixture.Run replay =
        CassandraFixture.cli("migrate", "replay", "--config", dir.resolve("notes.yaml").toString());
    assertThat(replay.status()).as(replay.all()).isEqualTo(1);
    assertThat(replay.out()).contains("rows 3, written 0, bad rows 3");
    assertThat(BadRowsFile.read(badRows))
        .extracting(BadRow::statement)
        .containsExactlyInAnyOrderElementsOf(bad.stream().map(BadRow::statement).toList());

    // Packed with neighbouring partitions, a bad row fails alone: its batch is retried row by
    // row, so the other 27 rows still arrive.
    db.execute("TRUNCATE " + db.keyspace + ".notes_by_note");
    CassandraFixture.Run packed =
        migrate(
            "notes-packed",
            "notes",
            "notes_by_note",
            "failures:\n  maxBadRows: 5\n  retries: 0\n  badRowsPath: "
                + badRows
                + "\n"
                + "writer:\n  batchBytes: 1048576\n  batchPartitions: 30\n");
    assertThat(packed.status()).as(packed.all()).isEqualTo(1);
    assertThat(packed.out()).contains("rows written 30, bad rows 3");
    assertThat(db.rows("SELECT k FROM " + db.keyspace + ".notes_by_note")).hasSize(27);

    CassandraFixture.Run aborted =
        migrate(
            "notes-strict",
            "notes",
            "notes_by_note",
            "failures:\n  maxBadRows: 1\n  retries: 0\n  badRowsPath: " + badRows + "\n");
    assertThat(aborted.status()).as(aborted.all()).isEqualTo(3);
    assertThat(aborted.out()).contains("more than failures.maxBadRows=1");
  }

  @Test
  void large_rows_are_read_in_smaller_pages_and_every_one_arrives() throws Exception {
    String ks = db.keyspace;
    db.execute("CREATE TABLE " + ks + ".blobs (k int, c int, v blob, PRIMARY KEY ((k), c))");
    db.execute("CREATE TABLE " + ks + ".blobs_copy (k int, c int, v blob, PRIMARY KEY ((k), c))");
    var insert = db.session.prepare("INSERT INTO " + ks + ".blobs (k, c, v) VALUES (?, ?, ?)");
    for (int k = 0; k < 2; k++) {
      for (int c = 0; c < 100; c++) {
        byte[] value = new byte[64 * 1024];
        java.util.Arrays.fill(value, (byte) (k * 100 + c));
        db.session.execute(insert.bind(k, c, java.nio.ByteBuffer.wrap(value)));
      }
    }
    // one range of 200 rows: 100 rows of 64 KiB make a 6.5 MB first page, so the later pages
    // ask for 64 rows each (about 4 MiB)
    CassandraFixture.Run run =
        migrateWith("blobs", "blobs", "  splitCount: 1\n  fetchSize: 100\n", "blobs_copy", "");
    assertThat(run.status()).as(run.all()).isZero();
    assertThat(run.out()).contains("rows written 200");
    List<Row> copied = db.rows("SELECT k, c, v FROM " + ks + ".blobs_copy");
    assertThat(copied)
        .hasSize(200)
        .allSatisfy(
            r -> {
              var v = r.getByteBuffer(2);
              assertThat(v.remaining()).isEqualTo(64 * 1024);
              assertThat(v.get(v.position() + 65_535))
                  .isEqualTo((byte) (r.getInt(0) * 100 + r.getInt(1)));
            });
  }

  @Test
  void conflict_rules_pick_by_column_by_writetime_or_fail() throws Exception {
    String rename = "";
    CassandraFixture.Run min =
        migrate(
            "min", "events", "latest", "reshape:\n  onConflict: keepMin\n  column: t\n" + rename);
    assertThat(min.status()).as(min.all()).isZero();
    assertThat(latest()).containsEntry("a", "1 old-but-newest-write").containsEntry("b", "2 alone");

    CassandraFixture.Run max =
        migrate("max", "events", "latest", "reshape:\n  onConflict: keepMax\n  column: t\n");
    assertThat(max.status()).isZero();
    assertThat(latest()).containsEntry("a", "5 max-t");

    CassandraFixture.Run newest =
        migrate("newest", "events", "latest", "reshape:\n  onConflict: keepNewestWritetime\n");
    assertThat(newest.status()).as(newest.all()).isZero();
    assertThat(latest()).containsEntry("a", "1 old-but-newest-write");

    CassandraFixture.Run fail =
        migrate("fail", "events", "latest", "reshape:\n  onConflict: fail\n");
    assertThat(fail.status()).as(fail.all()).isEqualTo(3);
    assertThat(fail.out()).contains("reshape conflict: source rows {p='p', id='a'");
  }

  private static Map<String, String> latest() {
    Map<String, String> out = new TreeMap<>();
    for (Row r : db.rows("SELECT id, t, v FROM " + db.keyspace + ".latest WHERE p = 'p'")) {
      out.put(r.getString(0), r.getInt(1) + " " + r.getString(2));
    }
    return out;
  }

  @Test
  void split_size_in_mb_cuts_the_ring_by_the_tables_estimated_size() throws Exception {
    db.execute("CREATE TABLE " + db.keyspace + ".sized (k int PRIMARY KEY, v text)");
    db.execute("CREATE TABLE " + db.keyspace + ".sized_copy (k int PRIMARY KEY, v text)");
    var insert = db.session.prepare("INSERT INTO " + db.keyspace + ".sized (k, v) VALUES (?, ?)");
    String kilobyte = "x".repeat(1024);
    List<java.util.concurrent.CompletionStage<?>> writes = new java.util.ArrayList<>();
    for (int k = 0; k < 20_000; k++) {
      writes.add(db.session.executeAsync(insert.bind(k, kilobyte + k)));
      if (writes.size() == 256) {
        writes.forEach(w -> w.toCompletableFuture().join());
        writes.clear();
      }
    }
    writes.forEach(w -> w.toCompletableFuture().join());
    // the estimates come from flushed data, recomputed on demand (every 5 minutes otherwise)
    try (var jmx =
        javax.management.remote.JMXConnectorFactory.connect(
            new javax.management.remote.JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:17199/jmxrmi"))) {
      var server = jmx.getMBeanServerConnection();
      var storage = new javax.management.ObjectName("org.apache.cassandra.db:type=StorageService");
      server.invoke(
          storage,
          "forceKeyspaceFlush",
          new Object[] {db.keyspace, new String[] {"sized"}},
          new String[] {String.class.getName(), String[].class.getName()});
      server.invoke(storage, "refreshSizeEstimates", new Object[0], new String[0]);
    }
    CassandraFixture.Run run =
        migrateWith(
            "sized",
            "sized",
            "  options:\n    spark.cassandra.input.split.size_in_mb: 4\n",
            "sized_copy",
            "");
    assertThat(run.status()).as(run.all()).isZero();
    java.util.regex.Matcher estimate =
        java.util.regex.Pattern.compile("table estimated at ([0-9,]+) MiB").matcher(run.err());
    assertThat(estimate.find()).as(run.err()).isTrue();
    long mib = Long.parseLong(estimate.group(1).replace(",", ""));
    assertThat(mib).as("20,000 rows of 1 KiB").isBetween(15L, 40L);
    int expected = (int) Math.max(1, (mib + 3) / 4);
    assertThat(run.err())
        .containsPattern(
            "plan: mode DIRECT, (" + expected + "|" + (expected + 1) + ") token ranges");
    assertThat(run.out()).contains("rows read 20,000,");
  }

  @Test
  void compaction_is_disabled_for_the_load_restored_and_followed_by_a_major_compaction()
      throws Exception {
    db.execute(
        "CREATE TABLE "
            + db.keyspace
            + ".cells_compacted (k int PRIMARY KEY, a text,"
            + " b text) WITH compaction = {'class': 'SizeTieredCompactionStrategy',"
            + " 'min_threshold': '6'}");
    Map<String, String> before = compaction("cells_compacted");
    CassandraFixture.Run run =
        migrate(
            "compaction",
            "cells",
            "cells_compacted",
            "compaction:\n  disableDuringLoad: true\n  majorCompactionAfter: true\n"
                + "  jmxPort: 17199\n");
    assertThat(run.status()).as(run.all()).isZero();
    assertThat(run.err())
        .contains("compaction of " + db.keyspace + ".cells_compacted disabled")
        .contains("'min_threshold': '6'")
        .contains("restored")
        .contains("major compaction done");
    assertThat(compaction("cells_compacted")).isEqualTo(before).containsEntry("min_threshold", "6");
    assertThat(
            dir.resolve("sp-compaction")
                .resolve(db.keyspace + ".cells-to-" + db.keyspace + ".cells_compacted.compaction"))
        .doesNotExist();
  }

  private static Map<String, String> compaction(String table) {
    return db.rows(
            "SELECT compaction FROM system_schema.tables WHERE keyspace_name = '"
                + db.keyspace
                + "' AND table_name = '"
                + table
                + "'")
        .get(0)
        .getMap(0, String.class, String.class);
  }
}
