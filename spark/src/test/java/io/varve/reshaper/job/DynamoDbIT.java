package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.local.testing.TestDynamoDb;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.ChildJob;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Tables copied to DynamoDB (DynamoDB Local) and back through the job file: every CQL type that
 * maps, byte for byte; the key schema made from the source's key, or refused when it cannot be;
 * types without a DynamoDB form refused; items that do not fit the target kept as bad rows; a kill
 * -9 of each direction and a rerun that loses nothing.
 */
class DynamoDbIT {
  private static final String COLUMNS =
      "(k int, c text, a ascii, bi bigint, bl blob, bo boolean, d date, de decimal, db double,"
          + " du duration, f float, ip inet, n int, s smallint, t text, tm time, ts timestamp,"
          + " tu timeuuid, ti tinyint, u uuid, v varint, l list<int>, st set<text>,"
          + " m map<text, int>, fl frozen<list<frozen<tuple<int, text>>>>,"
          + " ad frozen<address>, vec vector<float, 3>, PRIMARY KEY ((k), c))";
  private static final int ROWS = 200;
  private static final String RUN = Long.toString(System.nanoTime() % 1_000_000_000L, 36);
  @TempDir static Path dir;
  static CassandraFixture db;
  static DynamoDbClient dynamo;
  static URI endpoint;

  @BeforeAll
  static void createTables() {
    db = new CassandraFixture("reshaper_dynamodb_it");
    db.execute("CREATE TYPE " + db.keyspace + ".address (street text, zip int)");
    for (String table : List.of("every_type", "every_type_back", "killed_back", "from_items")) {
      db.execute("CREATE TABLE " + db.keyspace + "." + table + " " + COLUMNS);
    }
    var insert =
        db.session.prepare(
            "INSERT INTO "
                + db.keyspace
                + ".every_type (k, c, a, bi, bl, bo, d, de, db, du, f, ip, n, s, t, tm, ts, tu,"
                + " ti, u, v, l, st, m, fl, ad, vec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (int i = 0; i < ROWS; i++) {
      db.session.execute(insert.bind(EveryType.values(db.session, db.keyspace, i, true)));
    }
    db.execute("INSERT INTO " + db.keyspace + ".every_type (k, c) VALUES (-1, 'nulls')");
    endpoint = URI.create(TestDynamoDb.endpoint());
    dynamo =
        DynamoDbClient.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
  }

  @AfterAll
  static void close() {
    db.close();
    dynamo.close();
  }

  @Test
  void every_mappable_cql_type_survives_table_to_dynamodb_to_table_byte_for_byte()
      throws Exception {
    String table = "every_type_" + RUN;
    CassandraFixture.Run out =
        migrate(
            "to-dynamodb",
            db.side("source", "every_type", "  splitCount: 8\n")
                + dynamodb("target", table, "  createTable: true\n")
                + savepoints("to-dynamodb"));
    assertThat(out.status()).as(said(out, "to-dynamodb")).isZero();
    assertThat(out.out()).contains(String.format("rows written %,d,", ROWS + 1));
    assertThat(dynamo.describeTable(b -> b.tableName(table)).table().keySchema())
        .extracting(k -> k.attributeName() + " " + k.keyType())
        .containsExactly("k HASH", "c RANGE");
    Map<String, AttributeValue> item =
        dynamo
            .getItem(
                b ->
                    b.tableName(table)
                        .key(
                            Map.of(
                                "k", AttributeValue.fromN("10"), "c", AttributeValue.fromS("c10"))))
            .item();
    assertThat(item.get("t").s()).isEqualTo("texte é ✓ 10");
    assertThat(item.get("st").ss()).containsExactlyInAnyOrder("x10", "y");
    assertThat(item.get("de").n()).as("DynamoDB keeps a number, not its scale").isEqualTo("0.1");
    assertThat(item).as("an empty list is no attribute").doesNotContainKey("l");

    CassandraFixture.Run back =
        migrate(
            "from-dynamodb",
            dynamodb("source", table, "  scanSegments: 4\n")
                + db.side("target", "every_type_back", "")
                + savepoints("from-dynamodb"));
    assertThat(back.status()).as(back.all()).isZero();
    assertThat(back.err()).contains("4 scan segments");
    assertSameRows("every_type", "every_type_back");
  }

  @Test
  void keys_and_types_that_cannot_map_are_refused_before_anything_is_written() throws Exception {
    db.execute(
        "CREATE TABLE IF NOT EXISTS "
            + db.keyspace
            + ".composite (a int, b int, c int, x text, PRIMARY KEY ((a, b), c))");
    String composite = "composite_" + RUN;
    CassandraFixture.Run keys =
        migrate(
            "composite",
            db.side("source", "composite", "")
                + dynamodb("target", composite, "  createTable: true\n")
                + savepoints("composite"));
    assertThat(keys.status()).as(keys.all()).isEqualTo(2);
    assertThat(keys.err())
        .contains("target.createTable: true (expected: a source whose key is one partition-key")
        .contains("nothing was written");
    assertThat(dynamo.listTables().tableNames()).doesNotContain(composite);

    db.execute(
        "CREATE TABLE IF NOT EXISTS "
            + db.keyspace
            + ".odd (k int PRIMARY KEY, weird map<frozen<list<int>>, int>)");
    String odd = "odd_" + RUN;
    CassandraFixture.Run types =
        migrate(
            "odd",
            db.side("source", "odd", "")
                + dynamodb("target", odd, "  createTable: true\n")
                + savepoints("odd"));
    assertThat(types.status()).as(types.all()).isEqualTo(2);
    assertThat(types.err()).contains("source column weird: map<frozen<list<int>>, int>");
    assertThat(dynamo.listTables().tableNames()).doesNotContain(odd);
  }

  @Test
  void items_that_do_not_fit_the_target_are_bad_rows_and_the_others_are_copied() throws Exception {
    String table = "items_" + RUN;
    dynamo.createTable(
        b ->
            b.tableName(table)
                .billingMode("PAY_PER_REQUEST")
                .keySchema(
                    k -> k.attributeName("k").keyType("HASH"),
                    k -> k.attributeName("c").keyType("RANGE"))
                .attributeDefinitions(
                    a -> a.attributeName("k").attributeType("N"),
                    a -> a.attributeName("c").attributeType("S")));
    for (int i = 0; i < 20; i++) {
      Map<String, AttributeValue> item = new HashMap<>();
      item.put("k", AttributeValue.fromN(Integer.toString(i)));
      item.put("c", AttributeValue.fromS("c" + i));
      item.put("t", AttributeValue.fromS("text " + i));
      item.put("n", AttributeValue.fromN(Integer.toString(i * 10)));
      if (i == 3) {
        item.put("surplus", AttributeValue.fromS("no column"));
      }
      if (i == 4) {
        item.put("n", AttributeValue.fromS("forty"));
      }
      if (i == 5) {
        item.put("ti", AttributeValue.fromN("300"));
      }
      dynamo.putItem(b -> b.tableName(table).item(item));
    }
    CassandraFixture.Run run =
        migrate(
            "items",
            dynamodb("source", table, "")
                + db.side("target", "from_items", "")
                + savepoints("items")
                + "failures:\n  badRowsPath: "
                + dir.resolve("items.bad-rows")
                + "\n");
    assertThat(run.status()).as(run.all()).isEqualTo(1);
    assertThat(run.out()).contains("rows written 17,").contains("bad rows 3,");
    String bad = Files.readString(dir.resolve("items.bad-rows"));
    assertThat(bad)
        .contains("attribute surplus fills no target column")
        .contains("attribute n: ")
        .contains("attribute ti: ");
    assertThat(db.rows("SELECT k FROM " + db.keyspace + ".from_items")).hasSize(17);
  }

  @Test
  void a_killed_copy_to_dynamodb_and_back_rerun_to_exactly_the_source_rows() throws Exception {
    String table = "killed_" + RUN;
    String to =
        db.side("source", "every_type", "  splitCount: 24\n")
            + dynamodb("target", table, "  createTable: true\n")
            + savepoints("killed");
    Path slow = CassandraFixture.jobFile(dir, "slow-to", to + "rateLimit:\n  rowsPerSecond: 30\n");
    Path savepoint =
        dir.resolve("killed")
            .resolve(db.keyspace + ".every_type-to-dynamodb." + table + ".savepoint");
    List<Integer> done = ChildJob.killAfter(slow, dir.resolve("to.log"), savepoint, 3);
    assertThat(done).hasSizeBetween(3, 23);
    CassandraFixture.Run rerun = migrate("to", to);
    assertThat(rerun.status()).as(rerun.all()).isZero();
    assertThat(rerun.out()).contains("(" + done.size() + " done by earlier runs)");
    assertThat(dynamo.scan(b -> b.tableName(table).select("COUNT")).count()).isEqualTo(ROWS + 1);

    String back =
        dynamodb("source", table, "  scanSegments: 16\n")
            + db.side("target", "killed_back", "")
            + savepoints("killed");
    Path slowBack =
        CassandraFixture.jobFile(dir, "slow-back", back + "rateLimit:\n  rowsPerSecond: 30\n");
    Path backSavepoint =
        dir.resolve("killed")
            .resolve("dynamodb." + table + "-to-" + db.keyspace + ".killed_back.savepoint");
    List<Integer> backDone =
        ChildJob.killAfter(slowBack, dir.resolve("back.log"), backSavepoint, 2);
    assertThat(backDone).hasSizeBetween(2, 15);
    CassandraFixture.Run again = migrate("back", back);
    assertThat(again.status()).as(again.all()).isZero();
    assertThat(again.out()).contains("(" + backDone.size() + " done by earlier runs)");
    assertSameRows("every_type", "killed_back");
  }

  /**
   * Every row of {@code actualTable} is byte for byte the row of {@code expectedTable}, but for
   * decimals, equal in value: DynamoDB keeps numbers without their scale (3.50 comes back 3.5).
   */
  private void assertSameRows(String expectedTable, String actualTable) {
    Map<String, Row> before = byKey(expectedTable);
    Map<String, Row> after = byKey(actualTable);
    assertThat(after.keySet()).isEqualTo(before.keySet());
    for (var e : before.entrySet()) {
      for (ColumnDefinition column : e.getValue().getColumnDefinitions()) {
        String name = column.getName().asInternal();
        Row actual = after.get(e.getKey());
        if (column.getType().equals(DataTypes.DECIMAL) && !e.getValue().isNull(name)) {
          assertThat(actual.getBigDecimal(name))
              .as(e.getKey() + " " + name)
              .isEqualByComparingTo(e.getValue().getBigDecimal(name));
          continue;
        }
        ByteBuffer expected = e.getValue().getBytesUnsafe(name);
        assertThat(actual.getBytesUnsafe(name)).as(e.getKey() + " " + name).isEqualTo(expected);
      }
    }
  }

  private static CassandraFixture.Run migrate(String name, String yaml) throws Exception {
    return CassandraFixture.cli(
        "migrate", "--config", CassandraFixture.jobFile(dir, name, yaml).toString());
  }

  private static String dynamodb(String side, String table, String extra) {
    return side
        + ":\n  type: dynamodb\n  table: "
        + table
        + "\n  endpoint:\n    host: http://"
        + endpoint.getHost()
        + "\n    port: "
        + endpoint.getPort()
        + "\n  credentials:\n    accessKey: test\n    secretKey: test\n"
        + extra;
  }

  private static String savepoints(String name) {
    return "savepoints:\n  path: " + dir.resolve(name) + "\n  intervalSeconds: 0\n";
  }

  /** The run's output and the first lines of its bad-rows file, for a failed assertion. */
  private static String said(CassandraFixture.Run run, String name) throws Exception {
    Path bad;
    try (var files = Files.list(dir.resolve(name))) {
      bad = files.filter(f -> f.toString().endsWith(".bad-rows")).findFirst().orElse(null);
    }
    return run.all()
        + (bad == null
            ? ""
            : String.join("\n", Files.readAllLines(bad).stream().limit(12).toList()));
  }

  private static Map<String, Row> byKey(String table) {
    Map<String, Row> rows = new HashMap<>();
    for (Row r : db.rows("SELECT * FROM " + db.keyspace + "." + table)) {
      rows.put(r.getInt("k") + "/" + r.getString("c"), r);
    }
    return rows;
  }
}
