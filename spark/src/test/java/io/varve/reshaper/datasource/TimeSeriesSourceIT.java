package io.varve.reshaper.datasource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.local.testing.TestCassandra;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.datasource.VarveServerFixture.Item;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
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
 * {@code varve-timeseries} against a real server on the shared test Cassandra: a namespace whose
 * slices were created with two different partition settings, holding plain and compressed values,
 * read as a DataFrame that equals what ReadEventRecords returns, with filters pushed down; rows
 * written through the data source read back through the API byte for byte, once after a rerun; and
 * the hostile inputs of the issue, each an error naming its field with nothing written.
 */
class TimeSeriesSourceIT {

  private static final String NS = "tsds_events";
  private static final String[] SERIES = {"profile-a", "profile-b", "profile-ü"};
  private static VarveServerFixture server;
  private static CassandraFixture cassandra;
  private static SparkSession spark;
  private static Instant now;
  private static List<Item> written;

  @BeforeAll
  static void start() throws Exception {
    cassandra = new CassandraFixture("tsds_scratch");
    cassandra.execute("DROP KEYSPACE IF EXISTS " + NS);
    cassandra.execute("DROP KEYSPACE IF EXISTS tsds_loaded");
    cassandra.execute("DROP KEYSPACE IF EXISTS tsds_meta");
    server = new VarveServerFixture("tsds");
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("TimeSeriesSourceIT")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate();
    now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    // slices of the last hour: 10-minute buckets, 2 event buckets
    server.post("CreateNamespace", VarveServerFixture.namespace(NS, 600, 2, "1h"));
    server.awaitSliceAt(NS, now.minus(Duration.ofMinutes(50)));
    // then the window extended to 3 hours with 30-minute buckets of 4: the older slices get those
    server.post("UpdateNamespace", VarveServerFixture.namespace(NS, 1800, 4, "3h"));
    server.awaitSliceAt(NS, now.minus(Duration.ofMinutes(170)));
    written = writeThroughApi(NS);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
    if (server != null) {
      server.close();
    }
    if (cassandra != null) {
      cassandra.close();
    }
  }

  /**
   * Events every 7 minutes over the last 170 minutes, per series: small plain items, and every
   * third event a 20 KB item that compresses.
   */
  private static List<Item> writeThroughApi(String ns) {
    List<Item> items = new ArrayList<>();
    StringBuilder events = new StringBuilder();
    int n = 0;
    for (String series : SERIES) {
      for (int minutes = 1; minutes < 170; minutes += 7) {
        long time = now.minus(Duration.ofMinutes(minutes)).toEpochMilli() + n % 1000;
        String id = "ev-" + n;
        byte[] plain = ("value " + n).getBytes(StandardCharsets.UTF_8);
        byte[] big = ("compressible " + n + " ").repeat(1400).getBytes(StandardCharsets.UTF_8);
        List<Item> these = new ArrayList<>();
        these.add(Item.of(series, time, id, "k".getBytes(StandardCharsets.UTF_8), plain));
        if (n % 3 == 0) {
          these.add(Item.of(series, time, id, "big".getBytes(StandardCharsets.UTF_8), big));
        }
        if (events.length() > 0) {
          events.append(", ");
        }
        events
            .append("{\"timeSeriesId\": \"")
            .append(series)
            .append("\", \"eventTime\": \"")
            .append(Instant.ofEpochMilli(time))
            .append("\", \"eventId\": \"")
            .append(id)
            .append("\", \"eventItems\": [")
            .append(
                these.stream()
                    .map(
                        i ->
                            "{\"eventItemKey\": \""
                                + i.key()
                                + "\", \"eventItemValue\": \""
                                + i.value()
                                + "\"}")
                    .collect(Collectors.joining(", ")))
            .append("]}");
        items.addAll(these);
        n++;
      }
    }
    server.post(
        "WriteEventRecordsSync", "{\"namespace\": \"" + ns + "\", \"events\": [" + events + "]}");
    return items;
  }

  private static org.apache.spark.sql.DataFrameReader reader(String ns) {
    return spark
        .read()
        .format("varve-timeseries")
        .option("host", TestCassandra.contactPoint().getHostString())
        .option("port", Integer.toString(TestCassandra.contactPoint().getPort()))
        .option("localDC", TestCassandra.localDatacenter())
        .option("metadataKeyspace", server.metadataKeyspace)
        .option("namespace", ns);
  }

  private static Set<Item> items(Dataset<org.apache.spark.sql.Row> df) {
    Set<Item> items = new HashSet<>();
    for (org.apache.spark.sql.Row r : df.collectAsList()) {
      items.add(
          Item.of(
              r.getString(0),
              r.getTimestamp(1).getTime(),
              r.getString(2),
              (byte[]) r.get(3),
              (byte[]) r.get(4)));
    }
    return items;
  }

  private static Set<Item> throughApi(String ns, Instant from, Instant to, String... series) {
    Set<Item> items = new HashSet<>();
    for (String s : series) {
      items.addAll(server.read(ns, s, from.toString(), to.toString()));
    }
    return items;
  }

  private static BatchScanExec scan(Dataset<?> df) {
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
    return scans.get(0);
  }

  private static long metric(Dataset<?> df, String name) {
    return ((org.apache.spark.sql.execution.metric.SQLMetric) scan(df).metrics().get(name).get())
        .value();
  }

  @Test
  void the_dataframe_equals_what_read_event_records_returns_across_slices_of_different_settings() {
    List<Row> slices =
        cassandra.rows(
            "SELECT seconds_per_time_bucket, event_buckets FROM tsds_meta.time_slices WHERE"
                + " namespace = '"
                + NS
                + "'");
    assertThat(slices.stream().map(r -> r.getLong(0) + "/" + r.getInt(1)).distinct())
        .contains("600/2", "1800/4");
    assertThat(compressedRows("profile-a"))
        .as("the server stored some values compressed")
        .isPositive();

    Dataset<org.apache.spark.sql.Row> df = reader(NS).load();
    Set<Item> read = items(df);
    Instant from = now.minus(Duration.ofHours(4));
    Instant to = now.plus(Duration.ofHours(2));
    // every series the namespace holds (another test of this class may have loaded some)
    String[] all = read.stream().map(Item::series).distinct().toArray(String[]::new);
    assertThat(all).contains(SERIES);
    assertThat(read).containsExactlyInAnyOrderElementsOf(throughApi(NS, from, to, all));
    assertThat(read.stream().filter(i -> List.of(SERIES).contains(i.series())))
        .containsExactlyInAnyOrderElementsOf(written);
    assertThat(metric(df, "rowsFetched")).isEqualTo(read.size());
    assertThat(df.schema().fieldNames())
        .containsExactly("time_series_id", "event_time", "event_id", "item_key", "item_value");
  }

  /** Rows of a series stored with the compression marker, over every slice table. */
  private static long compressedRows(String series) {
    return tableNames().stream()
        .mapToLong(
            t ->
                cassandra
                    .rows(
                        "SELECT value_metadata FROM "
                            + NS
                            + "."
                            + t
                            + " WHERE time_series_id = '"
                            + series
                            + "' ALLOW FILTERING")
                    .stream()
                    .filter(r -> "compression=zstd".equals(r.getString(0)))
                    .count())
        .sum();
  }

  @Test
  void filters_on_series_and_time_are_pushed_down_and_read_fewer_rows_and_ranges() {
    Instant from = now.minus(Duration.ofMinutes(100));
    Instant to = now.minus(Duration.ofMinutes(20));
    Dataset<org.apache.spark.sql.Row> all = reader(NS).load();
    long allReads = allReads();

    Dataset<org.apache.spark.sql.Row> one =
        reader(NS)
            .load()
            .where(
                "time_series_id = 'profile-b' AND event_time >= timestamp'"
                    + Timestamp.from(from)
                    + "' AND event_time < timestamp'"
                    + Timestamp.from(to)
                    + "'");
    Set<Item> expected = throughApi(NS, from, to, "profile-b");
    assertThat(expected).isNotEmpty();
    assertThat(items(one)).containsExactlyInAnyOrderElementsOf(expected);
    String plan = one.queryExecution().executedPlan().toString();
    assertThat(plan)
        .contains("PushedFilters: [")
        .contains("time_series_id")
        .contains("partitions by key of time_series_id IN [profile-b]");
    assertThat(metric(one, "rowsFetched")).isEqualTo(expected.size());
    assertThat(metric(one, "cqlReads")).isLessThan(allReads);

    Dataset<org.apache.spark.sql.Row> recent =
        reader(NS).load().where("event_time >= timestamp'" + Timestamp.from(to) + "'");
    Set<Item> expectedRecent =
        throughApi(
            NS,
            to,
            now.plus(Duration.ofHours(1)),
            items(reader(NS).load()).stream().map(Item::series).distinct().toArray(String[]::new));
    assertThat(items(recent)).containsExactlyInAnyOrderElementsOf(expectedRecent);
    assertThat(metric(recent, "rowsFetched")).isEqualTo(expectedRecent.size());
    assertThat(recent.queryExecution().executedPlan().toString()).contains("token ranges");
    assertThat(all.where("time_series_id LIKE 'profile-%'").count()).isEqualTo(written.size());
  }

  private static long allReads() {
    Dataset<org.apache.spark.sql.Row> all = reader(NS).load();
    all.collectAsList();
    return metric(all, "cqlReads");
  }

  @Test
  void
      rows_written_through_the_data_source_read_back_through_the_api_byte_for_byte_once_after_a_rerun() {
    StructType schema =
        new StructType()
            .add("time_series_id", DataTypes.StringType, false)
            .add("event_time", DataTypes.TimestampType, false)
            .add("event_id", DataTypes.StringType, false)
            .add("item_key", DataTypes.BinaryType, false)
            .add("item_value", DataTypes.BinaryType, false);
    List<org.apache.spark.sql.Row> rows = new ArrayList<>();
    List<Item> expected = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      long time = now.minus(Duration.ofMinutes(1 + i % 170)).toEpochMilli() + i;
      byte[] value =
          i % 10 == 0
              ? ("loaded " + i + " ").repeat(2000).getBytes(StandardCharsets.UTF_8)
              : new byte[] {(byte) i, 0, (byte) 255};
      byte[] key = ("key-" + (i % 2)).getBytes(StandardCharsets.UTF_8);
      String series = "loaded-" + (i % 4);
      rows.add(RowFactory.create(series, new Timestamp(time), "id-" + i, key, value));
      expected.add(Item.of(series, time, "id-" + i, key, value));
    }
    Dataset<org.apache.spark.sql.Row> df = spark.createDataFrame(rows, schema).repartition(3);
    for (int run = 0; run < 2; run++) {
      write(df, Map.of());
      Set<Item> back =
          throughApi(
              NS,
              now.minus(Duration.ofHours(4)),
              now.plus(Duration.ofHours(1)),
              "loaded-0",
              "loaded-1",
              "loaded-2",
              "loaded-3");
      assertThat(back)
          .as("run " + run)
          .hasSize(expected.size())
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    assertThat(compressedRows("loaded-0"))
        .as("the large values are stored compressed, as the server stores them")
        .isPositive();
  }

  private static List<String> tableNames() {
    return cassandra
        .rows("SELECT table_name FROM tsds_meta.time_slices WHERE namespace = '" + NS + "'")
        .stream()
        .map(r -> r.getString(0))
        .toList();
  }

  @Test
  void hostile_options_and_dataframes_fail_naming_the_field_and_write_nothing() {
    assertThatThrownBy(() -> reader("no_such_namespace").load().count())
        .hasMessageContaining("namespace: no_such_namespace (expected: an existing namespace");
    assertThatThrownBy(
            () ->
                reader(NS)
                    .option("from", now.toString())
                    .option("to", now.minusSeconds(60).toString())
                    .load()
                    .count())
        .hasMessageContaining("to: ")
        .hasMessageContaining("expected: a time after from");
    assertThatThrownBy(() -> reader(NS).option("form", now.toString()).load().count())
        .hasMessageContaining("form: ")
        .hasMessageContaining("a key of the data source");
    assertThatThrownBy(() -> reader(NS).option("splitCount", "-3").load().count())
        .hasMessageContaining("splitCount");

    long before = reader(NS).load().count();
    StructType noValue = columns(DataTypes.TimestampType, false);
    Dataset<org.apache.spark.sql.Row> missing =
        spark.createDataFrame(
            List.of(RowFactory.create("x", new Timestamp(now.toEpochMilli()), "e", new byte[] {1})),
            noValue);
    assertThatThrownBy(() -> write(missing, Map.of())).hasMessageContaining("item_value");

    StructType stringTime = columns(DataTypes.StringType, true);
    Dataset<org.apache.spark.sql.Row> mistyped =
        spark.createDataFrame(
            List.of(RowFactory.create("x", "yesterday", "e", new byte[] {1}, new byte[] {2})),
            stringTime);
    assertThatThrownBy(() -> write(mistyped, Map.of())).hasMessageContaining("event_time");

    StructType full = columns(DataTypes.TimestampType, true);
    Dataset<org.apache.spark.sql.Row> old =
        spark.createDataFrame(
            List.of(
                RowFactory.create(
                    "too-old",
                    new Timestamp(now.minus(Duration.ofHours(5)).toEpochMilli()),
                    "e1",
                    new byte[] {1},
                    new byte[] {2}),
                RowFactory.create(
                    "too-old",
                    new Timestamp(now.minus(Duration.ofDays(400)).toEpochMilli()),
                    "e2",
                    new byte[] {1},
                    new byte[] {2})),
            full);
    assertThatThrownBy(() -> write(old, Map.of()))
        .hasStackTraceContaining("event_time")
        .hasStackTraceContaining("acceptLimit");
    assertThat(reader(NS).load().count()).as("nothing written").isEqualTo(before);
    assertThat(
            server.read(NS, "too-old", now.minus(Duration.ofDays(500)).toString(), now.toString()))
        .isEmpty();
  }

  @Test
  void a_namespace_deleted_between_planning_and_reading_fails_the_read_saying_so()
      throws Exception {
    String doomed = "tsds_doomed";
    server.post("CreateNamespace", VarveServerFixture.namespace(doomed, 600, 1, "1h"));
    server.awaitSliceAt(doomed, now.minus(Duration.ofMinutes(30)));
    Dataset<org.apache.spark.sql.Row> planned = reader(doomed).load();

    server.post(
        "DeleteNamespace",
        "{\"namespace\": \"" + doomed + "\", \"confirm_namespace\": \"" + doomed + "\"}");

    assertThatThrownBy(planned::count)
        .hasStackTraceContaining("namespace " + doomed + ": a table of it is gone")
        .hasStackTraceContaining("the namespace was deleted");
  }

  /**
   * The data source's columns, nullable, {@code event_time} of this type, with or without a value.
   */
  private static StructType columns(org.apache.spark.sql.types.DataType timeType, boolean value) {
    StructType t =
        new StructType()
            .add("time_series_id", DataTypes.StringType)
            .add("event_time", timeType)
            .add("event_id", DataTypes.StringType)
            .add("item_key", DataTypes.BinaryType);
    return value ? t.add("item_value", DataTypes.BinaryType) : t;
  }

  private static void write(Dataset<org.apache.spark.sql.Row> df, Map<String, String> extra) {
    df.write()
        .format("varve-timeseries")
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
