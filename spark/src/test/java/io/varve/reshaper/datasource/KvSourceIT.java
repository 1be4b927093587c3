package io.varve.reshaper.datasource;

import static io.varve.reshaper.datasource.VarveServerFixture.bytes;
import static io.varve.reshaper.datasource.VarveServerFixture.item;
import static io.varve.reshaper.datasource.VarveServerFixture.micros;
import static io.varve.reshaper.datasource.VarveServerFixture.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.testing.TestCassandra;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.datasource.VarveServerFixture.KvItem;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code varve-kv} against a real server on the shared test Cassandra: a namespace holding small,
 * compressed and chunked values (20 MiB) and deleted items, read as a DataFrame that equals what
 * GetItems returns, with filters on {@code id} pushed down; items written through the data source,
 * a 20 MiB one among them, read back through the API byte for byte, once after a rerun, without
 * overwriting a newer write; and the hostile inputs, each an error naming its field with nothing
 * written.
 */
class KvSourceIT {

  static final String NS = "kvds_items";
  private static final int RECORDS = 12;
  private static VarveServerFixture server;
  private static CassandraFixture cassandra;
  private static SparkSession spark;
  private static Instant now;
  private static Set<KvItem> written;

  @BeforeAll
  static void start() throws Exception {
    cassandra = new CassandraFixture("kvds_scratch");
    cassandra.execute("DROP KEYSPACE IF EXISTS " + NS);
    cassandra.execute("DROP KEYSPACE IF EXISTS kvds_loaded");
    cassandra.execute("DROP KEYSPACE IF EXISTS kvds_meta");
    server = new VarveServerFixture("kvds");
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("KvSourceIT")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    server.post("CreateNamespace", VarveServerFixture.kvNamespace(NS));
    written = putThroughApi();
  }

  /**
   * Stops Spark and the server, then drops the keyspaces: the suite's other classes share this
   * Cassandra, and the large values' memtables would hold its heap until dropped.
   */
  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
    if (server != null) {
      server.close();
    }
    if (cassandra != null) {
      for (String ks : List.of(NS, "kvds_series", "kvds_doomed", "kvds_meta")) {
        cassandra.execute("DROP KEYSPACE IF EXISTS " + ks);
      }
      cassandra.close();
    }
  }

  static byte[] random(int size, int seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /**
   * Records of small plain values and 20 KB compressible ones; one record with a 20 MiB random
   * value and a 3 MiB compressible one (both chunked); then one key of record r-1 and the whole of
   * record r-2 deleted.
   */
  private static Set<KvItem> putThroughApi() {
    Set<KvItem> items = new HashSet<>();
    long generation = micros(now.minusSeconds(60));
    for (int r = 0; r < RECORDS; r++) {
      String id = "r-" + r;
      List<String> json = new ArrayList<>();
      for (int k = 0; k < 5; k++) {
        byte[] key = ("key-" + k).getBytes(StandardCharsets.UTF_8);
        byte[] value =
            k == 4
                ? ("compressible " + r + " ").repeat(1500).getBytes(StandardCharsets.UTF_8)
                : ("value " + r + "/" + k).getBytes(StandardCharsets.UTF_8);
        json.add(item(key, value));
        if (!(r == 1 && k == 0) && r != 2) {
          items.add(KvItem.of(id, key, value, generation));
        }
      }
      server.put(NS, id, generation, "put-" + r, json);
    }
    byte[] big = random(20 << 20, 7);
    byte[] compressible =
        ("large and compressible ").repeat(140_000).getBytes(StandardCharsets.UTF_8);
    server.put(NS, "big", generation, "put-big", List.of(item(bytes("twenty"), big)));
    server.put(NS, "big", generation, "put-big", List.of(item(bytes("three"), compressible)));
    items.add(KvItem.of("big", bytes("twenty"), big, generation));
    items.add(KvItem.of("big", bytes("three"), compressible, generation));
    long later = generation + 1_000_000;
    server.post(
        "DeleteItems",
        "{\"namespace\": \""
            + NS
            + "\", \"id\": \"r-1\", \"idempotency_token\": "
            + token(later, "del-1")
            + ", \"predicate\": {\"match_keys\": {\"keys\": [\""
            + Base64.getEncoder().encodeToString(bytes("key-0"))
            + "\"]}}}");
    server.post(
        "DeleteItems",
        "{\"namespace\": \""
            + NS
            + "\", \"id\": \"r-2\", \"idempotency_token\": "
            + token(later, "del-2")
            + ", \"predicate\": {\"match_all\": {}}}");
    return items;
  }

  static org.apache.spark.sql.DataFrameReader reader(String ns) {
    return spark
        .read()
        .format("varve-kv")
        .option("host", TestCassandra.contactPoint().getHostString())
        .option("port", Integer.toString(TestCassandra.contactPoint().getPort()))
        .option("localDC", TestCassandra.localDatacenter())
        .option("metadataKeyspace", server.metadataKeyspace)
        .option("namespace", ns);
  }

  static Set<KvItem> items(Dataset<org.apache.spark.sql.Row> df) {
    Set<KvItem> items = new HashSet<>();
    for (org.apache.spark.sql.Row r : df.collectAsList()) {
      items.add(
          KvItem.of(
              r.getString(0),
              (byte[]) r.get(1),
              (byte[]) r.get(2),
              micros(r.getTimestamp(3).toInstant())));
    }
    return items;
  }

  private static long metric(Dataset<?> df, String name) {
    SparkPlan plan = df.queryExecution().executedPlan();
    List<BatchScanExec> scans = new ArrayList<>();
    plan.foreach(
        node -> {
          if (node instanceof BatchScanExec b) {
            scans.add(b);
          }
          return null;
        });
    assertThat(scans).hasSize(1);
    return ((org.apache.spark.sql.execution.metric.SQLMetric)
            scans.get(0).metrics().get(name).get())
        .value();
  }

  private static Set<String> ids(Set<KvItem> items) {
    Set<String> ids = new HashSet<>();
    items.forEach(i -> ids.add(i.id()));
    return ids;
  }

  @Test
  void the_dataframe_equals_what_get_items_returns_chunked_values_whole_deleted_items_absent() {
    assertThat(cassandra.rows("SELECT count(*) FROM " + NS + ".items_chunks").get(0).getLong(0))
        .as("the 20 MiB value is stored in chunks")
        .isGreaterThanOrEqualTo(20);

    Dataset<org.apache.spark.sql.Row> df = reader(NS).load();
    Set<KvItem> read = items(df);

    assertThat(read.stream().filter(i -> !i.id().startsWith("loaded")))
        .containsExactlyInAnyOrderElementsOf(written);
    assertThat(read).containsExactlyInAnyOrderElementsOf(server.getItems(NS, ids(read)));
    assertThat(read)
        .as("a deleted key and a deleted record are absent")
        .noneMatch(i -> i.id().equals("r-2"))
        .noneMatch(
            i ->
                i.id().equals("r-1")
                    && i.key().equals(Base64.getEncoder().encodeToString(bytes("key-0"))));
    assertThat(df.schema().fieldNames()).containsExactly("id", "key", "value", "generation_time");
  }

  @Test
  void filters_on_id_are_pushed_down_and_read_only_those_records() {
    Dataset<org.apache.spark.sql.Row> all = reader(NS).load();
    all.collectAsList();
    long allRows = metric(all, "rowsFetched");

    Dataset<org.apache.spark.sql.Row> two = reader(NS).load().where("id IN ('r-3', 'big')");
    Set<KvItem> expected = server.getItems(NS, Set.of("r-3", "big"));

    assertThat(items(two)).containsExactlyInAnyOrderElementsOf(expected).hasSize(7);
    assertThat(two.queryExecution().executedPlan().toString())
        .contains("PushedFilters: [")
        .contains("records by key of id IN [");
    assertThat(metric(two, "rowsFetched")).isEqualTo(expected.size()).isLessThan(allRows);
    assertThat(metric(two, "cqlReads")).isEqualTo(2);
  }

  @Test
  void a_token_range_reads_exactly_the_records_whose_token_is_in_it() {
    Set<String> upper = new HashSet<>();
    for (var row : cassandra.rows("SELECT DISTINCT id, token(id) FROM " + NS + ".items")) {
      if (row.getLong(1) > 0) {
        upper.add(row.getString(0));
      }
    }
    assertThat(upper).isNotEmpty();
    Dataset<org.apache.spark.sql.Row> share =
        reader(NS).option("tokenRange", "0," + Long.MAX_VALUE).load();

    Set<KvItem> read = items(share);

    assertThat(ids(read)).isEqualTo(upper);
    assertThat(read).containsExactlyInAnyOrderElementsOf(server.getItems(NS, upper));
    assertThat(share.queryExecution().executedPlan().toString())
        .contains("token ranges of the item table in (0, " + Long.MAX_VALUE + "]");
    assertThatThrownBy(() -> reader(NS).option("tokenRange", "5,1").load().count())
        .hasMessageContaining("tokenRange: 5,1")
        .hasMessageContaining("START below END");
  }

  @Test
  void items_written_through_the_data_source_read_back_byte_for_byte_once_after_a_rerun() {
    StructType schema =
        new StructType()
            .add("id", DataTypes.StringType, false)
            .add("key", DataTypes.BinaryType, false)
            .add("value", DataTypes.BinaryType, false);
    List<org.apache.spark.sql.Row> rows = new ArrayList<>();
    Instant generation = now.minusSeconds(30).plusNanos(123_000);
    Set<KvItem> expected = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      String id = "loaded-" + (i % 7);
      byte[] key = bytes("k" + i);
      byte[] value =
          i % 20 == 0
              ? ("loaded " + i + " ").repeat(3000).getBytes(StandardCharsets.UTF_8)
              : new byte[] {(byte) i, 0, (byte) 255};
      rows.add(RowFactory.create(id, key, value));
      expected.add(KvItem.of(id, key, value, micros(generation)));
    }
    // 5 MiB: five chunks (NamespaceTransferIT round-trips a 20 MiB value through this writer)
    byte[] big = random(5 << 20, 11);
    rows.add(RowFactory.create("loaded-big", bytes("five"), big));
    expected.add(KvItem.of("loaded-big", bytes("five"), big, micros(generation)));
    Dataset<org.apache.spark.sql.Row> df = spark.createDataFrame(rows, schema).repartition(3);
    Set<String> ids = ids(expected);

    for (int run = 0; run < 2; run++) {
      write(df, Map.of("generationTime", generation.toString(), "token", "load-1"));
      assertThat(server.getItems(NS, ids))
          .as("run " + run)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(
            cassandra
                .rows(
                    "SELECT count(*) FROM kvds_meta.kv_chunk_log WHERE shard IN (0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15) AND id = 'loaded-big' ALLOW FILTERING")
                .get(0)
                .getLong(0))
        .as("the chunked value is in the staging log, for the server's sweeper")
        .isPositive();

    // a newer write through the API stays newer when the load runs again
    byte[] newer = bytes("newer");
    server.put(NS, "loaded-0", micros(now), "newer", List.of(item(bytes("k0"), newer)));
    write(df, Map.of("generationTime", generation.toString(), "token", "load-1"));
    assertThat(server.getItems(NS, Set.of("loaded-0")))
        .contains(KvItem.of("loaded-0", bytes("k0"), newer, micros(now)));
  }

  @Test
  void hostile_options_and_dataframes_fail_naming_the_field_and_write_nothing() {
    assertThatThrownBy(() -> reader("no_such_namespace").load().count())
        .hasMessageContaining("namespace: no_such_namespace (expected: an existing namespace");
    assertThatThrownBy(() -> reader(NS).option("from", now.toString()).load().count())
        .hasMessageContaining("from: ")
        .hasMessageContaining("no such key for varve-kv");
    server.post("CreateNamespace", VarveServerFixture.namespace("kvds_series", 600, 1, "1h"));
    assertThatThrownBy(() -> reader("kvds_series").load().count())
        .hasMessageContaining("namespace: kvds_series (a TIME_SERIES namespace)")
        .hasMessageContaining("varve-timeseries");

    long before = reader(NS).load().count();
    StructType noValue =
        new StructType().add("id", DataTypes.StringType).add("key", DataTypes.BinaryType);
    assertThatThrownBy(
            () ->
                write(
                    spark.createDataFrame(List.of(RowFactory.create("x", new byte[] {1})), noValue),
                    Map.of()))
        .hasMessageContaining("value: missing");
    StructType stringKey =
        new StructType()
            .add("id", DataTypes.StringType)
            .add("key", DataTypes.StringType)
            .add("value", DataTypes.BinaryType);
    assertThatThrownBy(
            () ->
                write(
                    spark.createDataFrame(
                        List.of(RowFactory.create("x", "k", new byte[] {1})), stringKey),
                    Map.of()))
        .hasMessageContaining("key: a column of type string");

    StructType timed =
        new StructType()
            .add("id", DataTypes.StringType)
            .add("key", DataTypes.BinaryType)
            .add("value", DataTypes.BinaryType)
            .add("generation_time", DataTypes.TimestampType);
    Dataset<org.apache.spark.sql.Row> bad =
        spark
            .createDataFrame(
                List.of(
                    RowFactory.create(
                        "future",
                        new byte[] {1},
                        new byte[] {2},
                        Timestamp.from(now.plus(Duration.ofHours(1)))),
                    RowFactory.create("i".repeat(2000), new byte[] {1}, new byte[] {2}, null)),
                timed)
            .coalesce(1);
    assertThatThrownBy(() -> write(bad, Map.of()))
        .hasStackTraceContaining("generation_time")
        .hasStackTraceContaining("maxTokenLead");
    assertThatThrownBy(() -> write(bad, Map.of("maxBadRows", "1")))
        .hasStackTraceContaining("refused 2 rows")
        .hasStackTraceContaining("id: ");
    assertThat(reader(NS).load().count()).as("nothing written").isEqualTo(before);
  }

  @Test
  void a_namespace_deleted_between_planning_and_reading_fails_the_read_saying_so() {
    String doomed = "kvds_doomed";
    server.post("CreateNamespace", VarveServerFixture.kvNamespace(doomed));
    server.put(doomed, "r", micros(now), "t", List.of(item(bytes("k"), bytes("v"))));
    Dataset<org.apache.spark.sql.Row> planned = reader(doomed).load();

    server.post(
        "DeleteNamespace",
        "{\"namespace\": \"" + doomed + "\", \"confirm_namespace\": \"" + doomed + "\"}");

    assertThatThrownBy(planned::count)
        .hasStackTraceContaining("namespace " + doomed + ": a table of it is gone")
        .hasStackTraceContaining("the namespace was deleted");
    assertThatThrownBy(() -> reader(doomed).load().count())
        .hasMessageContaining("namespace: " + doomed);
  }

  static void write(Dataset<org.apache.spark.sql.Row> df, Map<String, String> extra) {
    df.write()
        .format("varve-kv")
        .mode("append")
        .option("host", TestCassandra.contactPoint().getHostString())
        .option("port", Integer.toString(TestCassandra.contactPoint().getPort()))
        .option("localDC", TestCassandra.localDatacenter())
        .option("metadataKeyspace", server.metadataKeyspace)
        .option("namespace", NS)
        .options(extra)
        .save();
  }
}
