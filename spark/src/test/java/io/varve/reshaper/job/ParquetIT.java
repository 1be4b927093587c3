package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.ChildJob;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables unloaded to Parquet files and files loaded into tables, through the job file: every CQL
 * type byte for byte through a round trip; a kill -9 of each kind of job and a rerun that loses and
 * repeats nothing; files that do not fit the target refused before anything is written.
 */
class ParquetIT {
  private static final String COLUMNS =
      "(k int, c text, a ascii, bi bigint, bl blob, bo boolean, d date, de decimal, db double,"
          + " du duration, f float, ip inet, n int, s smallint, t text, tm time, ts timestamp,"
          + " tu timeuuid, ti tinyint, u uuid, v varint, l list<int>, st set<text>,"
          + " m map<text, int>, fl frozen<list<frozen<tuple<int, text>>>>,"
          + " ad frozen<address>, vec vector<float, 3>, PRIMARY KEY ((k), c))";
  private static final int ROWS = 300;
  @TempDir static Path dir;
  static CassandraFixture db;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_parquet_it");
    db.execute("CREATE TYPE " + db.keyspace + ".address (street text, zip int)");
    for (String table : List.of("every_type", "every_type_back", "killed_load")) {
      db.execute("CREATE TABLE " + db.keyspace + "." + table + " " + COLUMNS);
    }
    db.execute("CREATE TABLE " + db.keyspace + ".misfit (k int, c int, PRIMARY KEY ((k), c))");
    var insert =
        db.session.prepare(
            "INSERT INTO "
                + db.keyspace
                + ".every_type (k, c, a, bi, bl, bo, d, de, db, du, f, ip, n, s, t, tm, ts, tu,"
                + " ti, u, v, l, st, m, fl, ad, vec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (int i = 0; i < ROWS; i++) {
      db.session.execute(insert.bind(EveryType.values(db.session, db.keyspace, i)));
    }
    // a row of nulls but its key
    db.execute("INSERT INTO " + db.keyspace + ".every_type (k, c) VALUES (-1, 'nulls')");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void every_cql_type_survives_table_to_parquet_to_table_byte_for_byte() throws Exception {
    Path files = dir.resolve("every_type");
    CassandraFixture.Run unload =
        migrate(
            "unload",
            db.side("source", "every_type", "  splitCount: 8\n")
                + parquet("target", files)
                + savepoints("unload"));
    assertThat(unload.status()).as(unload.all()).isZero();
    assertThat(unload.out()).contains(String.format("rows read %,d,", ROWS + 1));
    try (Stream<Path> listed = Files.list(files)) {
      assertThat(listed.map(p -> p.getFileName().toString()).sorted())
          .as("one file per token range, nothing unfinished left")
          .containsExactly(
              "part-00000.parquet",
              "part-00001.parquet",
              "part-00002.parquet",
              "part-00003.parquet",
              "part-00004.parquet",
              "part-00005.parquet",
              "part-00006.parquet",
              "part-00007.parquet");
    }
    assertThat(keys(files)).hasSize(ROWS + 1).doesNotHaveDuplicates();

    CassandraFixture.Run load =
        migrate(
            "load",
            parquet("source", files)
                + db.side("target", "every_type_back", "")
                + savepoints("load"));
    assertThat(load.status()).as(load.all()).isZero();
    assertThat(load.err()).contains("8 files");

    Map<String, Row> before = byKey("every_type");
    Map<String, Row> after = byKey("every_type_back");
    assertThat(after.keySet()).isEqualTo(before.keySet());
    for (var e : before.entrySet()) {
      Row b = e.getValue();
      Row a = after.get(e.getKey());
      for (ColumnDefinition column : b.getColumnDefinitions()) {
        String name = column.getName().asInternal();
        ByteBuffer expected = b.getBytesUnsafe(name);
        assertThat(a.getBytesUnsafe(name)).as(e.getKey() + " " + name).isEqualTo(expected);
      }
    }
  }

  @Test
  void a_killed_unload_and_a_killed_load_rerun_to_exactly_the_source_rows() throws Exception {
    Path files = dir.resolve("killed_unload");
    String unload =
        db.side("source", "every_type", "  splitCount: 24\n")
            + parquet("target", files)
            + savepoints("killed");
    Path slow =
        CassandraFixture.jobFile(dir, "slow-unload", unload + "rateLimit:\n  rowsPerSecond: 40\n");
    Path savepoint =
        dir.resolve("killed")
            .resolve(db.keyspace + ".every_type-to-parquet.killed_unload.savepoint");
    List<Integer> done = ChildJob.killAfter(slow, dir.resolve("unload.log"), savepoint, 3);
    assertThat(done).hasSizeBetween(3, 23);
    CassandraFixture.Run rerun =
        CassandraFixture.cli(
            "migrate", "--config", CassandraFixture.jobFile(dir, "unload", unload).toString());
    assertThat(rerun.status()).as(rerun.all()).isZero();
    assertThat(rerun.out()).contains("(" + done.size() + " done by earlier runs)");
    assertThat(keys(files)).as("every row once").hasSize(ROWS + 1).doesNotHaveDuplicates();

    String load =
        parquet("source", files) + db.side("target", "killed_load", "") + savepoints("killed");
    Path slowLoad =
        CassandraFixture.jobFile(dir, "slow-load", load + "rateLimit:\n  rowsPerSecond: 40\n");
    Path loadSavepoint =
        dir.resolve("killed")
            .resolve("parquet.killed_unload-to-" + db.keyspace + ".killed_load.savepoint");
    List<Integer> loaded = ChildJob.killAfter(slowLoad, dir.resolve("load.log"), loadSavepoint, 3);
    assertThat(loaded).hasSizeBetween(3, 23);
    CassandraFixture.Run reload =
        CassandraFixture.cli(
            "migrate", "--config", CassandraFixture.jobFile(dir, "load", load).toString());
    assertThat(reload.status()).as(reload.all()).isZero();
    assertThat(reload.out()).contains("(" + loaded.size() + " done by earlier runs)");
    assertThat(byKey("killed_load").keySet()).isEqualTo(byKey("every_type").keySet());
  }

  @Test
  void files_that_do_not_fit_the_target_are_refused_naming_the_field_and_nothing_is_written()
      throws Exception {
    Path files = dir.resolve("misfit");
    CassandraFixture.Run unload =
        migrate(
            "misfit-unload",
            db.side("source", "every_type", "  splitCount: 2\n")
                + parquet("target", files)
                + savepoints("misfit")
                + "drop: [a, bi, bl, bo, d, de, db, du, f, ip, n, s, t, tm, ts, tu, ti, u, v, l,"
                + " st, m, fl, ad, vec]\n");
    assertThat(unload.status()).as(unload.all()).isZero();

    CassandraFixture.Run load =
        migrate(
            "misfit-load",
            parquet("source", files) + db.side("target", "misfit", "") + savepoints("misfit"));
    assertThat(load.status()).as(load.all()).isEqualTo(2);
    assertThat(load.err())
        .contains("source.path: ")
        .contains("field c (expected: a field whose values fit target column c: ")
        .contains("nothing was written");
    assertThat(db.rows("SELECT * FROM " + db.keyspace + ".misfit")).isEmpty();

    Files.writeString(files.resolve("notes.txt"), "not ours");
    CassandraFixture.Run again =
        migrate(
            "misfit-again",
            db.side("source", "every_type", "")
                + parquet("target", files)
                + savepoints("misfit-again"));
    assertThat(again.status()).as(again.all()).isEqualTo(2);
    assertThat(again.err()).contains("target.path: " + files).contains("but it holds notes.txt");
  }

  @Test
  void files_pyarrow_wrote_load_and_unload_to_the_same_types_and_values() throws Exception {
    String python = System.getProperty("varve.test.python", "");
    assumeThat(python).as("a Python with pyarrow (./varve test installs one)").isNotBlank();
    db.execute(
        "CREATE TABLE IF NOT EXISTS "
            + db.keyspace
            + ".from_pyarrow (k bigint PRIMARY KEY, name text, price double, qty int, ts timestamp,"
            + " day date, tags list<text>, attrs map<text, bigint>, raw blob, small tinyint,"
            + " mid smallint, ok boolean, ratio float)");
    Path in = dir.resolve("pyarrow-in");
    Path out = dir.resolve("pyarrow-out");
    run(
        python,
        in,
        "import datetime, sys",
        "import pyarrow as pa, pyarrow.parquet as pq",
        "schema = pa.schema([('k', pa.int64()), ('name', pa.string()), ('price', pa.float64()),",
        "  ('qty', pa.int32()), ('ts', pa.timestamp('ms', tz='UTC')), ('day', pa.date32()),",
        "  ('tags', pa.list_(pa.string())), ('attrs', pa.map_(pa.string(), pa.int64())),",
        "  ('raw', pa.binary()), ('small', pa.int8()), ('mid', pa.int16()), ('ok', pa.bool_()),",
        "  ('ratio', pa.float32())])",
        "epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)",
        "for f in range(3):",
        "  rows = []",
        "  for i in range(f * 100, f * 100 + 100):",
        "    rows.append({'k': i * 7919 - 400, 'name': None if i % 10 == 0 else 'n%d é' % i,",
        "      'price': i / 3.0, 'qty': i * -3, 'ts': epoch + datetime.timedelta(milliseconds=i * 86400123 - 10**9),",
        "      'day': datetime.date(1960, 1, 1) + datetime.timedelta(days=i * 50),",
        "      'tags': None if i % 7 == 0 else ['a%d' % i, 'b'], 'attrs': [('x', i), ('y', -i)],",
        "      'raw': bytes([i % 256, 0, 255]), 'small': i % 256 - 128, 'mid': i - 150,",
        "      'ok': i % 2 == 0, 'ratio': i / 7.0})",
        "  pq.write_table(pa.Table.from_pylist(rows, schema=schema), sys.argv[1] + '/f%d.parquet' % f)");
    CassandraFixture.Run load =
        migrate(
            "pyarrow-load",
            parquet("source", in) + db.side("target", "from_pyarrow", "") + savepoints("py-load"));
    assertThat(load.status()).as(load.all()).isZero();
    assertThat(load.out()).contains("rows read 300,").contains("rows written 300,");
    CassandraFixture.Run unload =
        migrate(
            "pyarrow-unload",
            db.side("source", "from_pyarrow", "  splitCount: 4\n")
                + parquet("target", out)
                + savepoints("py-unload"));
    assertThat(unload.status()).as(unload.all()).isZero();
    List<String> said =
        run(
            python,
            dir,
            "import sys",
            "import pyarrow.dataset as ds",
            "a = ds.dataset(sys.argv[1] + '/pyarrow-in', format='parquet').to_table().sort_by('k')",
            "b = ds.dataset(sys.argv[1] + '/pyarrow-out', format='parquet').to_table().sort_by('k')",
            "for f in a.schema:",
            "  g = b.schema.field(f.name)",
            "  assert f.type == g.type, (f, g)",
            "  assert a.column(f.name).to_pylist() == b.column(f.name).to_pylist(), f.name",
            "print('same', a.num_rows, b.num_rows, len(b.schema))");
    assertThat(said).containsExactly("same 300 300 13");
  }

  /** Runs a Python script with {@code arg}; its output lines. */
  private static List<String> run(String python, Path arg, String... script) throws Exception {
    Files.createDirectories(arg);
    Process p =
        new ProcessBuilder(python, "-c", String.join("\n", script), arg.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
    return output.lines().filter(l -> !l.isBlank()).toList();
  }

  private static CassandraFixture.Run migrate(String name, String yaml) throws Exception {
    return CassandraFixture.cli(
        "migrate", "--config", CassandraFixture.jobFile(dir, name, yaml).toString());
  }

  private static String parquet(String side, Path path) {
    return side + ":\n  type: parquet\n  path: " + path + "\n";
  }

  private static String savepoints(String name) {
    return "savepoints:\n  path: " + dir.resolve(name) + "\n  intervalSeconds: 0\n";
  }

  /** The rows of a table by their key. */
  private static Map<String, Row> byKey(String table) {
    Map<String, Row> rows = new HashMap<>();
    for (Row r : db.rows("SELECT * FROM " + db.keyspace + "." + table)) {
      rows.put(r.getInt("k") + "/" + r.getString("c"), r);
    }
    return rows;
  }

  /** The keys of every row of the Parquet files of a directory, read with Parquet's own reader. */
  private static List<String> keys(Path directory) throws Exception {
    List<String> keys = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.sorted().toList()) {
        if (file.getFileName().toString().startsWith(".")) {
          continue;
        }
        try (ParquetReader<Group> reader =
            ParquetReader.builder(
                    new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toString()))
                .withConf(new Configuration())
                .build()) {
          for (Group g = reader.read(); g != null; g = reader.read()) {
            keys.add(g.getInteger("k", 0) + "/" + g.getString("c", 0));
          }
        }
      }
    }
    return keys;
  }
}
