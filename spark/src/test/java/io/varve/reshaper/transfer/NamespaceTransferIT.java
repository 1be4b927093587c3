package io.varve.reshaper.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.local.testing.TestCassandra;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.ChildJob;
import io.varve.reshaper.cli.ReshaperCli;
import io.varve.reshaper.datasource.VarveServerFixture;
import io.varve.reshaper.datasource.VarveServerFixture.Item;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
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
 * {@code varve export} and {@code varve import} as a user runs them, against a real server: an
 * export killed with SIGKILL after its first slice and run again holds every event once, which
 * pyarrow (not Spark) reads back item for item; an import of it into a fresh namespace of other
 * partition settings, killed and run again, reads back through ReadEventRecords byte for byte; bad
 * options and inputs exit 2, refused rows 3, with nothing written.
 */
class NamespaceTransferIT {

  private static final String NS = "xfer_source";
  private static final String FRESH = "xfer_fresh";
  private static final String[] SERIES = {"s-1", "s-2", "s-3", "s-4"};
  private static VarveServerFixture server;
  private static CassandraFixture cassandra;
  private static Instant now;
  private static List<Item> written;

  @BeforeAll
  static void start() throws Exception {
    cassandra = new CassandraFixture("xfer_scratch");
    for (String ks : List.of(NS, FRESH, "xfer_meta")) {
      cassandra.execute("DROP KEYSPACE IF EXISTS " + ks);
    }
    server = new VarveServerFixture("xfer");
    now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    server.post("CreateNamespace", VarveServerFixture.namespace(NS, 600, 2, "3h"));
    server.post("CreateNamespace", VarveServerFixture.namespace(FRESH, 1800, 4, "3h"));
    server.awaitSliceAt(NS, now.minus(Duration.ofMinutes(170)));
    server.awaitSliceAt(FRESH, now.minus(Duration.ofMinutes(170)));
    written = write();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (cassandra != null) {
      cassandra.close();
    }
  }

  /**
   * 150 events per series over the last 170 minutes, every fifth with a large compressible item.
   */
  private static List<Item> write() {
    List<Item> items = new ArrayList<>();
    for (String series : SERIES) {
      List<String> events = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        long time = now.minus(Duration.ofSeconds(30 + i * 67L)).toEpochMilli() + i;
        List<Item> these = new ArrayList<>();
        these.add(
            Item.of(
                series,
                time,
                "e" + i,
                "k".getBytes(StandardCharsets.UTF_8),
                ("v" + i).getBytes(StandardCharsets.UTF_8)));
        if (i % 5 == 0) {
          these.add(
              Item.of(
                  series,
                  time,
                  "e" + i,
                  new byte[] {0, (byte) 0xff},
                  ("large " + i + " ").repeat(900).getBytes(StandardCharsets.UTF_8)));
        }
        events.add(
            "{\"timeSeriesId\": \""
                + series
                + "\", \"eventTime\": \""
                + Instant.ofEpochMilli(time)
                + "\", \"eventId\": \"e"
                + i
                + "\", \"eventItems\": ["
                + these.stream()
                    .map(
                        it ->
                            "{\"eventItemKey\": \""
                                + it.key()
                                + "\", \"eventItemValue\": \""
                                + it.value()
                                + "\"}")
                    .collect(Collectors.joining(", "))
                + "]}");
        items.addAll(these);
      }
      server.post(
          "WriteEventRecordsSync",
          "{\"namespace\": \"" + NS + "\", \"events\": [" + String.join(", ", events) + "]}");
    }
    return items;
  }

  private static List<String> connection() {
    return List.of(
        "-o",
        "host=" + TestCassandra.contactPoint().getHostString(),
        "-o",
        "port=" + TestCassandra.contactPoint().getPort(),
        "-o",
        "localDC=" + TestCassandra.localDatacenter(),
        "-o",
        "metadataKeyspace=" + server.metadataKeyspace);
  }

  private static List<String> args(String... first) {
    List<String> args = new ArrayList<>(List.of(first));
    args.addAll(connection());
    return args;
  }

  /** Runs the command line in this JVM; its exit status, its stderr in {@code err}. */
  private static int run(List<String> args, StringBuilder err) {
    PrintStream saved = System.err;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      return ReshaperCli.execute(args.toArray(new String[0]));
    } finally {
      System.setErr(saved);
      err.append(buffer.toString(StandardCharsets.UTF_8));
    }
  }

  /** Kills the child with SIGKILL once {@code state} records a finished unit. */
  private static void killAfterFirstUnit(List<String> args, Path state, Path log) throws Exception {
    Process child = ChildJob.start(args, log);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
      while (!(Files.exists(state) && Files.readString(state).contains("\"done\" : {\n"))
          && System.nanoTime() < deadline
          && child.isAlive()) {
        Thread.sleep(20);
      }
      assertThat(child.isAlive())
          .as("the child still runs when it is killed: " + Files.readString(log))
          .isTrue();
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void export_and_import_killed_and_resumed_round_trip_exactly_and_pyarrow_reads_every_event(
      @TempDir Path dir) throws Exception {
    Path out = dir.resolve("export");
    List<String> export = args("export", "--namespace", NS, "--out", out.toString());
    killAfterFirstUnit(export, out.resolve("_varve_export.json"), dir.resolve("export.log"));
    StringBuilder err = new StringBuilder();
    assertThat(run(export, err)).as(err.toString()).isZero();

    Set<Item> exported = readWithPyarrow(out);
    assertThat(exported).hasSize(written.size()).containsExactlyInAnyOrderElementsOf(written);

    List<String> importArgs = args("import", "--namespace", FRESH, "--in", out.toString());
    killAfterFirstUnit(
        importArgs, out.resolve("_varve_import." + FRESH + ".json"), dir.resolve("import.log"));
    assertThat(run(importArgs, err)).as(err.toString()).isZero();

    Set<Item> back = new HashSet<>();
    for (String series : SERIES) {
      back.addAll(
          server.read(
              FRESH,
              series,
              now.minus(Duration.ofHours(4)).toString(),
              now.plus(Duration.ofHours(1)).toString()));
    }
    assertThat(back).hasSize(written.size()).containsExactlyInAnyOrderElementsOf(written);
    assertThat(
            cassandra
                .rows(
                    "SELECT table_name, event_buckets FROM xfer_meta.time_slices WHERE namespace = '"
                        + FRESH
                        + "'")
                .stream()
                .map(r -> r.getInt(1))
                .distinct()
                .toList())
        .as("the fresh namespace's own partition settings")
        .containsExactly(4);
  }

  /**
   * The export as pyarrow reads it: every Parquet file under {@code dir}, each item a JSON line.
   * {@code ./varve test} installs pyarrow and names its Python in {@code varve.test.python}.
   */
  private static Set<Item> readWithPyarrow(Path dir) throws Exception {
    String python = System.getProperty("varve.test.python", "");
    assumeThat(python).as("a Python with pyarrow (./varve test installs one)").isNotBlank();
    String script =
        String.join(
            "\n",
            "import base64, json, sys",
            "import pyarrow.dataset as ds",
            "t = ds.dataset(sys.argv[1], format='parquet').to_table()",
            "assert t.schema.field('event_time').type.unit == 'ms', t.schema",
            "for r in t.to_pylist():",
            "    print(json.dumps([r['time_series_id'], int(r['event_time'].timestamp() * 1000),"
                + " r['event_id'], base64.b64encode(r['item_key']).decode(),"
                + " base64.b64encode(r['item_value']).decode()]))");
    Process p =
        new ProcessBuilder(python, "-c", script, dir.toString()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
    Set<Item> items = new HashSet<>();
    ObjectMapper json = new ObjectMapper();
    List<String> lines = output.lines().filter(l -> !l.isBlank()).toList();
    for (String line : lines) {
      JsonNode a = json.readTree(line);
      items.add(
          new Item(
              a.get(0).asText(),
              a.get(1).asLong(),
              a.get(2).asText(),
              a.get(3).asText(),
              a.get(4).asText()));
    }
    assertThat(lines).as("no item twice").hasSize(items.size());
    return items;
  }

  @Test
  void bad_options_and_inputs_exit_2_and_refused_rows_3_with_nothing_written(@TempDir Path dir)
      throws Exception {
    StringBuilder err = new StringBuilder();
    assertThat(
            run(args("export", "--namespace", "nope", "--out", dir.resolve("x").toString()), err))
        .isEqualTo(2);
    assertThat(err).contains("namespace: nope (expected: an existing namespace");

    err.setLength(0);
    assertThat(run(args("import", "--namespace", FRESH, "--in", dir.toString()), err)).isEqualTo(2);
    assertThat(err).contains("--in: ").contains("(expected: a directory holding .parquet files)");

    err.setLength(0);
    assertThat(
            run(args("export", "--namespace", NS, "--format", "csv", "--out", dir.toString()), err))
        .isEqualTo(2);
    assertThat(err).contains("--format: csv (expected: parquet)");

    err.setLength(0);
    assertThat(
            run(
                args(
                    "export",
                    "--namespace",
                    NS,
                    "--from",
                    now.toString(),
                    "--to",
                    now.minusSeconds(1).toString(),
                    "--out",
                    dir.toString()),
                err))
        .isEqualTo(2);
    assertThat(err).contains("to: ").contains("(expected: a time after from)");

    // an out directory holding another run's export
    Path out = dir.resolve("other");
    Files.createDirectories(out);
    Files.writeString(
        out.resolve("_varve_export.json"),
        "{\"run\": {\"kind\": \"export\", \"namespace\": \"someone_else\"}, \"done\": {}}");
    err.setLength(0);
    assertThat(run(args("export", "--namespace", NS, "--out", out.toString()), err)).isEqualTo(2);
    assertThat(err).contains("--out: ").contains("state of another run");

    // Parquet files whose rows are out of the fresh namespace's window, and one without a column
    Path old = dir.resolve("old");
    Path narrow = dir.resolve("narrow");
    var spark = io.varve.reshaper.job.SparkSupport.session(java.util.Map.of());
    spark
        .sql(
            "SELECT 'too-old' AS time_series_id, timestamp'2020-01-01 00:00:00' AS event_time,"
                + " 'e' AS event_id, X'01' AS item_key, X'02' AS item_value")
        .write()
        .parquet(old.resolve("part").toString());
    spark
        .sql(
            "SELECT 'narrow' AS time_series_id, current_timestamp() AS event_time, 'e' AS event_id")
        .write()
        .parquet(narrow.resolve("part").toString());
    err.setLength(0);
    assertThat(run(args("import", "--namespace", FRESH, "--in", old.toString()), err)).isEqualTo(3);
    assertThat(err).contains("event_time").contains("acceptLimit");
    err.setLength(0);
    assertThat(run(args("import", "--namespace", FRESH, "--in", narrow.toString()), err))
        .isEqualTo(2);
    assertThat(err).contains("item_key");
    for (String series : List.of("too-old", "narrow")) {
      assertThat(
              server.read(
                  FRESH, series, "2019-01-01T00:00:00Z", now.plus(Duration.ofHours(1)).toString()))
          .as("nothing written of " + series)
          .isEmpty();
    }
  }
}
