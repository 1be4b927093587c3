package io.varve.reshaper.transfer;

import static io.varve.reshaper.datasource.VarveServerFixture.bytes;
import static io.varve.reshaper.datasource.VarveServerFixture.item;
import static io.varve.reshaper.datasource.VarveServerFixture.micros;
import static io.varve.reshaper.datasource.VarveServerFixture.token;
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
import io.varve.reshaper.datasource.VarveServerFixture.KvItem;
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
  private static final String KV = "xfer_kv";
  private static final String KV_FRESH = "xfer_kv_fresh";
  private static Set<KvItem> kvWritten;
  private static VarveServerFixture server;
  private static CassandraFixture cassandra;
  private static Instant now;
  private static List<Item> written;

  @BeforeAll
  static void start() throws Exception {
    cassandra = new CassandraFixture("xfer_scratch");
    for (String ks : List.of(NS, FRESH, KV, KV_FRESH, "xfer_meta")) {
      cassandra.execute("DROP KEYSPACE IF EXISTS " + ks);
    }
    server = new VarveServerFixture("xfer");
    now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    server.post("CreateNamespace", VarveServerFixture.namespace(NS, 600, 2, "3h"));
    server.post("CreateNamespace", VarveServerFixture.namespace(FRESH, 1800, 4, "3h"));
    server.awaitSliceAt(NS, now.minus(Duration.ofMinutes(170)));
    server.awaitSliceAt(FRESH, now.minus(Duration.ofMinutes(170)));
    written = write();
    server.post("CreateNamespace", VarveServerFixture.kvNamespace(KV));
    server.post("CreateNamespace", VarveServerFixture.kvNamespace(KV_FRESH));
    kvWritten = putItems();
  }

  /**
   * 40 records of small and compressible items, generation times a microsecond apart, one item of
   * them deleted; and a record holding a 20 MiB value (chunked).
   */
  private static Set<KvItem> putItems() {
    Set<KvItem> items = new HashSet<>();
    long generation = micros(now.minusSeconds(120)) + 7;
    for (int r = 0; r < 40; r++) {
      List<String> json = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        byte[] key = bytes("k" + k);
        byte[] value =
            k == 2
                ? ("item " + r + " ").repeat(800).getBytes(StandardCharsets.UTF_8)
                : bytes("v" + r);
        json.add(item(key, value));
        if (!(r == 5 && k == 0)) {
          items.add(KvItem.of("rec-" + r, key, value, generation + r));
        }
      }
      server.put(KV, "rec-" + r, generation + r, "t" + r, json);
    }
    server.post(
        "DeleteItems",
        "{\"namespace\": \""
            + KV
            + "\", \"id\": \"rec-5\", \"idempotency_token\": "
            + token(generation + 1000, "del")
            + ", \"predicate\": {\"match_keys\": {\"keys\": [\""
            + java.util.Base64.getEncoder().encodeToString(bytes("k0"))
            + "\"]}}}");
    byte[] big = new byte[20 << 20];
    new java.util.Random(20).nextBytes(big);
    server.put(KV, "big", generation, "big", List.of(item(bytes("twenty"), big)));
    items.add(KvItem.of("big", bytes("twenty"), big, generation));
    return items;
  }

  /** Stops the server, then drops the keyspaces, as the suite's other classes share Cassandra. */
  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (cassandra != null) {
      for (String ks : List.of(NS, FRESH, KV, KV_FRESH, "xfer_meta")) {
        cassandra.execute("DROP KEYSPACE IF EXISTS " + ks);
      }
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
    killWhen(
        args, () -> Files.exists(state) && Files.readString(state).contains("\"done\" : {\n"), log);
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

  @Test
  void kv_export_and_import_killed_and_resumed_round_trip_exactly_with_a_20_mib_value(
      @TempDir Path dir) throws Exception {
    Path out = dir.resolve("export");
    List<String> export = args("export", "--namespace", KV, "--out", out.toString());
    Path state = out.resolve("_varve_export.json");
    killAfterFirstUnit(export, state, dir.resolve("export.log"));
    long doneWhenKilled = Files.readString(state).lines().filter(l -> l.contains("items/")).count();
    assertThat(doneWhenKilled).as("shares exported when killed").isBetween(1L, 15L);
    StringBuilder err = new StringBuilder();
    assertThat(run(export, err)).as(err.toString()).isZero();
    assertThat(Files.readString(state).lines().filter(l -> l.contains("\"items/")).count())
        .as("every share recorded once")
        .isEqualTo(16);
    assertThat(itemsWithPyarrow(out)).containsExactlyInAnyOrderElementsOf(kvWritten);

    List<String> importArgs = args("import", "--namespace", KV_FRESH, "--in", out.toString());
    // killed while it pauses between the chunks of the 20 MiB value and its item row
    killWhen(
        importArgs,
        () -> !cassandra.rows("SELECT id FROM " + KV_FRESH + ".items_chunks LIMIT 1").isEmpty(),
        dir.resolve("import.log"),
        "-D" + PAUSE_AFTER_CHUNKS + "=5000");
    assertThat(run(importArgs, err)).as(err.toString()).isZero();

    Set<String> ids = new HashSet<>();
    kvWritten.forEach(i -> ids.add(i.id()));
    assertThat(server.getItems(KV_FRESH, ids))
        .as("every item, value and generation time as exported")
        .containsExactlyInAnyOrderElementsOf(kvWritten);

    err.setLength(0);
    assertThat(
            run(
                args(
                    "export",
                    "--namespace",
                    KV,
                    "--from",
                    now.toString(),
                    "--out",
                    dir.resolve("x").toString()),
                err))
        .isEqualTo(2);
    assertThat(err).contains("from: ").contains("no such key for varve-kv");
  }

  /** The writer's test-only pause after a chunked value's chunks, before its row (ms). */
  static final String PAUSE_AFTER_CHUNKS = "varve.test.kv.pauseAfterChunkStaging";

  /**
   * Kills the child, started with these system properties, with SIGKILL once {@code ready} holds.
   */
  private static void killWhen(
      List<String> args,
      java.util.concurrent.Callable<Boolean> ready,
      Path log,
      String... properties)
      throws Exception {
    Process child = ChildJob.start(args, log, properties);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
      while (!ready.call() && System.nanoTime() < deadline && child.isAlive()) {
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

  /** A KeyValue export as pyarrow reads it: generation times in microseconds, values by digest. */
  private static Set<KvItem> itemsWithPyarrow(Path dir) throws Exception {
    List<String> lines =
        pyarrow(
            dir,
            "import base64, hashlib, json, sys",
            "import pyarrow.dataset as ds",
            "t = ds.dataset(sys.argv[1], format='parquet').to_table()",
            "assert t.schema.field('generation_time').type.unit == 'us', t.schema",
            "for r in t.to_pylist():",
            "    g = r['generation_time']",
            "    us = (g.replace(tzinfo=None) - __import__('datetime').datetime(1970, 1, 1))",
            "    print(json.dumps([r['id'], base64.b64encode(r['key']).decode(),"
                + " hashlib.sha256(r['value']).hexdigest(), len(r['value']),"
                + " us.days * 86400000000 + us.seconds * 1000000 + us.microseconds]))");
    Set<KvItem> items = new HashSet<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      JsonNode a = json.readTree(line);
      items.add(
          new KvItem(
              a.get(0).asText(),
              a.get(1).asText(),
              a.get(2).asText(),
              a.get(3).asInt(),
              a.get(4).asLong()));
    }
    assertThat(lines).as("no item twice").hasSize(items.size());
    return items;
  }

  /** The output lines of a Python script run with pyarrow on {@code dir}. */
  private static List<String> pyarrow(Path dir, String... script) throws Exception {
    String python = System.getProperty("varve.test.python", "");
    assumeThat(python).as("a Python with pyarrow (./varve test installs one)").isNotBlank();
    Process p =
        new ProcessBuilder(python, "-c", String.join("\n", script), dir.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
    return output.lines().filter(l -> !l.isBlank()).toList();
  }

  /**
   * The export as pyarrow reads it: every Parquet file under {@code dir}, each item a JSON line.
   * {@code ./varve test} installs pyarrow and names its Python in {@code varve.test.python}.
   */
  private static Set<Item> readWithPyarrow(Path dir) throws Exception {
    List<String> lines =
        pyarrow(
            dir,
            "import base64, json, sys",
            "import pyarrow.dataset as ds",
            "t = ds.dataset(sys.argv[1], format='parquet').to_table()",
            "assert t.schema.field('event_time').type.unit == 'ms', t.schema",
            "for r in t.to_pylist():",
            "    print(json.dumps([r['time_series_id'], int(r['event_time'].timestamp() * 1000),"
                + " r['event_id'], base64.b64encode(r['item_key']).decode(),"
                + " base64.b64encode(r['item_value']).decode()]))");
    Set<Item> items = new HashSet<>();
    ObjectMapper json = new ObjectMapper();
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

    // an out directory that cannot be made (under a file)
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    err.setLength(0);
    assertThat(run(args("export", "--namespace", NS, "--out", file.resolve("sub").toString()), err))
        .isEqualTo(2);
    assertThat(err)
        .contains("--out: ")
        .contains("(cannot be created)")
        .contains("nothing was written");

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
