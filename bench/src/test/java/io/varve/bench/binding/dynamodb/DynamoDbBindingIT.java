package io.varve.bench.binding.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.varve.local.testing.TestDynamoDb;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.Vector;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** The {@code dynamodb} binding against a real DynamoDB Local, one table per test run. */
class DynamoDbBindingIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String TABLE = "usertable_" + RUN;

  private static String endpoint;
  private static DynamoDbBinding binding;
  private static DynamoDbClient admin;

  @BeforeAll
  static void bindingWithCreatedTable() throws DBException {
    endpoint = TestDynamoDb.endpoint();
    admin =
        DynamoDbClient.builder()
            .endpointOverride(URI.create(endpoint))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(SharedClient.DUMMY))
            .build();
    binding = binding(properties(TABLE, "dynamodb.create", "true"));
  }

  @AfterAll
  static void cleanup() {
    binding.cleanup();
    admin.close();
  }

  @Test
  void init_creates_the_table_with_the_primary_key_and_waits_until_active() {
    TableDescription table = admin.describeTable(b -> b.tableName(TABLE)).table();
    assertThat(table.tableStatus()).isEqualTo(TableStatus.ACTIVE);
    assertThat(table.keySchema())
        .singleElement()
        .satisfies(
            key -> {
              assertThat(key.attributeName()).isEqualTo("y_id");
              assertThat(key.keyType()).isEqualTo(KeyType.HASH);
            });
  }

  @Test
  void inserted_record_reads_back_whole_or_by_selected_fields() {
    Map<String, String> record = Map.of("field0", "alpha", "field1", "beta", "size", "3");
    assertThat(binding.insert(TABLE, "user1", StringByteIterator.getByteIteratorMap(record)))
        .isEqualTo(Status.OK);

    assertThat(read("user1", null)).isEqualTo(record);
    // "size" is a reserved word of DynamoDB: the projection must use placeholders.
    assertThat(read("user1", Set.of("field1", "size")))
        .isEqualTo(Map.of("field1", "beta", "size", "3"));
  }

  @Test
  void field_bytes_are_stored_exactly_as_binary() {
    byte[] bytes = {0, -1, 10, 127, -128, 34};
    assertThat(binding.insert(TABLE, "user5", Map.of("field0", new ByteArrayByteIterator(bytes))))
        .isEqualTo(Status.OK);
    Map<String, ByteIterator> result = new HashMap<>();
    assertThat(binding.read(TABLE, "user5", null, result)).isEqualTo(Status.OK);
    assertThat(result.get("field0").toArray()).isEqualTo(bytes);
    assertThat(
            admin
                .getItem(b -> b.tableName(TABLE).key(Map.of("y_id", AttributeValue.fromS("user5"))))
                .item()
                .get("field0")
                .type())
        .isEqualTo(AttributeValue.Type.B);
  }

  @Test
  void update_changes_only_the_given_fields() {
    binding.insert(
        TABLE,
        "user2",
        StringByteIterator.getByteIteratorMap(Map.of("field0", "a", "field1", "b")));
    assertThat(
            binding.update(
                TABLE,
                "user2",
                StringByteIterator.getByteIteratorMap(Map.of("field1", "B", "field2", "C"))))
        .isEqualTo(Status.OK);
    assertThat(read("user2", null)).isEqualTo(Map.of("field0", "a", "field1", "B", "field2", "C"));
  }

  @Test
  void deleted_record_reads_as_not_found() {
    binding.insert(TABLE, "user3", StringByteIterator.getByteIteratorMap(Map.of("field0", "x")));
    assertThat(binding.delete(TABLE, "user3")).isEqualTo(Status.OK);
    assertThat(binding.read(TABLE, "user3", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    assertThat(binding.read(TABLE, "never-written", null, new HashMap<>()))
        .isEqualTo(Status.NOT_FOUND);
  }

  @Test
  void scan_returns_the_start_record_and_those_after_it_up_to_the_count() throws DBException {
    String table = "scan_" + RUN;
    DynamoDbBinding scanner = binding(properties(table, "dynamodb.create", "true"));
    try {
      for (int i = 0; i < 6; i++) {
        scanner.insert(
            table,
            "user" + i,
            StringByteIterator.getByteIteratorMap(Map.of("field0", "v" + i, "field1", "w")));
      }
      Vector<HashMap<String, ByteIterator>> three = new Vector<>();
      assertThat(scanner.scan(table, "user2", 3, Set.of("field0"), three)).isEqualTo(Status.OK);
      assertThat(three)
          .hasSize(3)
          .allSatisfy(found -> assertThat(found).containsOnlyKeys("field0"));
      assertThat(three.get(0).get("field0").toString()).isEqualTo("v2");

      Vector<HashMap<String, ByteIterator>> all = new Vector<>();
      assertThat(scanner.scan(table, "user2", 100, null, all)).isEqualTo(Status.OK);
      assertThat(all)
          .hasSizeBetween(1, 6)
          .allSatisfy(found -> assertThat(found).containsOnlyKeys("field0", "field1"));
    } finally {
      scanner.cleanup();
    }
  }

  @Test
  void bindings_initialised_concurrently_create_the_table_once_and_share_it() throws Exception {
    String table = "concurrent_" + RUN;
    CyclicBarrier together = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    List<DynamoDbBinding> started = new CopyOnWriteArrayList<>();
    try {
      List<Future<?>> inits = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        inits.add(
            threads.submit(
                () -> {
                  together.await();
                  started.add(binding(properties(table, "dynamodb.create", "true")));
                  return null;
                }));
      }
      for (Future<?> init : inits) {
        init.get();
      }
      assertThat(admin.listTables().tableNames()).containsOnlyOnce(table);
      assertThat(
              started
                  .get(0)
                  .insert(
                      table,
                      "k",
                      StringByteIterator.getByteIteratorMap(Map.of("field0", "shared"))))
          .isEqualTo(Status.OK);
      Map<String, ByteIterator> result = new HashMap<>();
      assertThat(started.get(1).read(table, "k", null, result)).isEqualTo(Status.OK);
      assertThat(result.get("field0").toString()).isEqualTo("shared");
    } finally {
      started.forEach(DynamoDbBinding::cleanup);
      threads.shutdown();
    }
  }

  @Test
  void consistent_reads_are_asked_for_when_configured() throws Exception {
    List<String> bodies = new CopyOnWriteArrayList<>();
    HttpServer recorder = recordingProxy(bodies);
    try {
      String through = "http://127.0.0.1:" + recorder.getAddress().getPort();
      // The shared client is built by the first binding of the JVM: release ours meanwhile.
      binding.cleanup();
      DynamoDbBinding consistent =
          binding(
              properties(TABLE, "dynamodb.consistentReads", "true", "dynamodb.endpoint", through));
      try {
        consistent.insert(TABLE, "user4", StringByteIterator.getByteIteratorMap(Map.of("f", "v")));
        Map<String, ByteIterator> result = new HashMap<>();
        assertThat(consistent.read(TABLE, "user4", null, result)).isEqualTo(Status.OK);
        assertThat(result.get("f").toString()).isEqualTo("v");
      } finally {
        consistent.cleanup();
      }
    } finally {
      recorder.stop(0);
      binding = binding(properties(TABLE));
    }
    assertThat(bodies)
        .filteredOn(body -> body.contains("\"Key\""))
        .filteredOn(body -> !body.contains("\"Item\""))
        .singleElement()
        .asString()
        .contains("\"ConsistentRead\":true");
  }

  @Test
  void bad_properties_fail_init_naming_the_property_value_and_expectation() {
    assertThatThrownBy(() -> binding(properties(TABLE, "dynamodb.maxConnections", "lots")))
        .isInstanceOf(DBException.class)
        .hasMessage("dynamodb.maxConnections: lots (expected: an integer in 1..10000)");
    assertThatThrownBy(() -> binding(properties(TABLE, "dynamodb.endpoint", "127.0.0.1:8000")))
        .isInstanceOf(DBException.class)
        .hasMessageStartingWith("dynamodb.endpoint: 127.0.0.1:8000 (expected: a URL with scheme");
    assertThatThrownBy(() -> binding(properties(TABLE, "dynamodb.consistentReads", "yes")))
        .isInstanceOf(DBException.class)
        .hasMessage("dynamodb.consistentReads: yes (expected: true or false)");
    assertThatThrownBy(() -> binding(properties(TABLE, "dynamodb.readCapacityUnits", "5")))
        .isInstanceOf(DBException.class)
        .hasMessageStartingWith("dynamodb.writeCapacityUnits: (not set)");
  }

  private static Map<String, String> read(String key, Set<String> fields) {
    Map<String, ByteIterator> result = new HashMap<>();
    assertThat(
            binding.read(TABLE, key, fields == null ? null : new LinkedHashSet<>(fields), result))
        .isEqualTo(Status.OK);
    Map<String, String> strings = new HashMap<>();
    StringByteIterator.putAllAsStrings(strings, result);
    return strings;
  }

  private static Properties properties(String table, String... pairs) {
    Properties properties = new Properties();
    properties.setProperty("dynamodb.endpoint", endpoint);
    properties.setProperty("table", table);
    for (int i = 0; i < pairs.length; i += 2) {
      properties.setProperty(pairs[i], pairs[i + 1]);
    }
    return properties;
  }

  private static DynamoDbBinding binding(Properties properties) throws DBException {
    DynamoDbBinding created = new DynamoDbBinding();
    created.setProperties(properties);
    created.init();
    return created;
  }

  /** Passes requests on to DynamoDB Local unchanged, keeping a copy of each request body. */
  private static HttpServer recordingProxy(List<String> bodies) throws IOException {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body;
          try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
          }
          bodies.add(new String(body, StandardCharsets.UTF_8));
          HttpRequest.Builder forward =
              HttpRequest.newBuilder(URI.create(endpoint + "/"))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body));
          exchange
              .getRequestHeaders()
              .forEach(
                  (name, values) -> {
                    if (Set.of("authorization", "content-type", "x-amz-target", "x-amz-date")
                        .contains(name.toLowerCase())) {
                      values.forEach(value -> forward.header(name, value));
                    }
                  });
          try {
            HttpResponse<byte[]> response =
                http.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            response
                .headers()
                .firstValue("content-type")
                .ifPresent(type -> exchange.getResponseHeaders().set("Content-Type", type));
            exchange.sendResponseHeaders(response.statusCode(), response.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(response.body());
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(502, -1);
          }
        });
    server.start();
    return server;
  }
}
