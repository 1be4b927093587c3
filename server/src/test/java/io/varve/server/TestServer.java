package io.varve.server;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.local.testing.TestCassandra;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * A Varve server for one test class, on the test Cassandra, with its own metadata keyspace, and an
 * HTTP/JSON client for it.
 */
final class TestServer implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();

  /** An HTTP answer: status and parsed JSON body. */
  record Reply(int status, JsonNode body) {
    String errorField() {
      return body.path("error").path("field").asText();
    }

    String errorMessage() {
      return body.path("error").path("message").asText();
    }
  }

  final VarveServer server;
  final CqlSession cql;
  private final HttpClient http = TestHttp.client();

  /**
   * Drops {@code metadataKeyspace} and {@code keyspaces} left by an earlier run, then starts a
   * server.
   */
  TestServer(ServerSettings base, String metadataKeyspace, String... keyspaces) {
    this(base, java.time.Clock.systemUTC(), metadataKeyspace, keyspaces);
  }

  TestServer(
      ServerSettings base, java.time.Clock clock, String metadataKeyspace, String... keyspaces) {
    this(base, clock, metadataKeyspace, session -> {}, keyspaces);
  }

  /** As above, running {@code beforeStart} on the test's session once the keyspaces are dropped. */
  TestServer(
      ServerSettings base,
      java.time.Clock clock,
      String metadataKeyspace,
      java.util.function.Consumer<CqlSession> beforeStart,
      String... keyspaces) {
    this(base, clock, metadataKeyspace, beforeStart, TestCassandra.contactPoint(), keyspaces);
  }

  /**
   * As above, the server reaching the test Cassandra at {@code serverCassandra} (a proxy in front
   * of it), the test's own session directly.
   */
  TestServer(
      ServerSettings base,
      java.time.Clock clock,
      String metadataKeyspace,
      java.util.function.Consumer<CqlSession> beforeStart,
      InetSocketAddress serverCassandra,
      String... keyspaces) {
    InetSocketAddress cassandra = TestCassandra.contactPoint();
    this.cql =
        CqlSession.builder().addContactPoint(cassandra).withLocalDatacenter("datacenter1").build();
    cql.execute(
        SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + metadataKeyspace)
            .setTimeout(Duration.ofSeconds(30)));
    for (String keyspace : keyspaces) {
      cql.execute(
          SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
              .setTimeout(Duration.ofSeconds(30)));
    }
    beforeStart.accept(cql);
    CassandraSettings c =
        base.cassandra()
            .withContactPoints(List.of(serverCassandra))
            .withMetadataKeyspace(metadataKeyspace);
    this.server =
        VarveServer.start(
            base.toBuilder().cassandra(c).port(0).shutdown(ServerSettings.Shutdown.AT_ONCE).build(),
            clock);
  }

  TestServer(String metadataKeyspace, String... keyspaces) {
    this(ServerSettings.defaults(), metadataKeyspace, keyspaces);
  }

  String base() {
    return "http://127.0.0.1:" + server.port();
  }

  /** Polls {@code condition} every 200 ms until it holds; fails naming {@code what} after 60 s. */
  static void await(String what, java.util.concurrent.Callable<Boolean> condition)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.call()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 60 s: " + what);
      }
      Thread.sleep(200); // between polls of the server and the stores
    }
  }

  Reply post(String rpc, String body) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(base() + "/v1/" + rpc))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode json =
          response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
      return new Reply(response.statusCode(), json);
    } catch (IOException e) {
      throw new RuntimeException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RuntimeException(e);
    }
  }

  /** A blocking gRPC client of this server's TimeSeries service. */
  io.varve.api.timeseries.v1.TimeSeriesGrpc.TimeSeriesBlockingStub timeSeries() {
    return com.linecorp.armeria.client.grpc.GrpcClients.newClient(
        base(), io.varve.api.timeseries.v1.TimeSeriesGrpc.TimeSeriesBlockingStub.class);
  }

  /** A blocking gRPC client of this server's KeyValue service. */
  io.varve.api.kv.v1.KeyValueGrpc.KeyValueBlockingStub keyValue() {
    return com.linecorp.armeria.client.grpc.GrpcClients.newClient(
        base(), io.varve.api.kv.v1.KeyValueGrpc.KeyValueBlockingStub.class);
  }

  /** The server's {@code /metrics} page. */
  String metricsText() {
    return com.linecorp.armeria.client.WebClient.of(base())
        .get("/metrics")
        .aggregate()
        .join()
        .contentUtf8();
  }

  /** The value of a metric without labels (or its first labelled series) in {@code /metrics}. */
  double metric(String name) {
    String text = metricsText();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("(?m)^" + name + "(\\{[^}]*\\})? ([0-9.eE+-]+)$")
            .matcher(text);
    if (!m.find()) {
      throw new AssertionError(name + " not in /metrics");
    }
    return Double.parseDouble(m.group(2));
  }

  /** The value of a metric's series of {@code namespace} in {@code /metrics}; 0 when absent. */
  double metric(String name, String namespace) {
    String text = metricsText();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "(?m)^"
                    + name
                    + "\\{namespace=\""
                    + java.util.regex.Pattern.quote(namespace)
                    + "\",?\\} ([0-9.eE+-]+)$")
            .matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  Reply post(String rpc, JsonNode body) {
    return post(rpc, body.toString());
  }

  /**
   * Creates a KeyValue namespace whose items live in {@code dataset.table}, in clustering {@code
   * order}; fails when the server refuses it.
   */
  void createKeyValueNamespace(String namespace, String dataset, String table, String order) {
    Reply created =
        post(
            "CreateNamespace",
            "{\"namespace\": \""
                + namespace
                + "\", \"service\": \"KEY_VALUE\", \"persistence_configuration\": [{\"id\":"
                + " \"PRIMARY_STORAGE\", \"physical_storage\": {\"dataset\": \""
                + dataset
                + "\", \"table\": \""
                + table
                + "\", \"config\": {\"clustering_order\": \""
                + order
                + "\"}}}]}");
    if (created.status() != 200) {
      throw new IllegalStateException("CreateNamespace " + namespace + ": " + created.body());
    }
  }

  @Override
  public void close() {
    server.close();
    cql.close();
  }
}
