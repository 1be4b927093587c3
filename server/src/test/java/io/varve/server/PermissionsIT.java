package io.varve.server;

import static io.varve.server.Events.event;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import com.linecorp.armeria.common.auth.AuthToken;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-token permissions on a real server, over HTTP/JSON and gRPC: every RPC allowed where the
 * token's grant covers it and refused with 403 / PERMISSION_DENIED elsewhere, with nothing written
 * or changed by a refused call; ListNamespaces filtered; /metrics and /docs/ behind tokens.
 */
class PermissionsIT {

  static final String ORDERS = "perm_orders";
  static final String PAYMENTS = "perm_payments";
  static final String ROOT = "root-token-0123456789";
  static final String ORDERS_RW = "orders-rw-token-0123456789";
  static final String PAYMENTS_ADMIN = "payments-admin-token-0123456789";
  static final String PROMETHEUS = "prometheus-token-0123456789";
  static final String DOCS = "docs-token-0123456789";

  static TestServer server;
  static Instant t;
  static TimeSeriesGrpc.TimeSeriesBlockingStub ordersData;
  static ControlPlaneGrpc.ControlPlaneBlockingStub ordersControl;
  static ControlPlaneGrpc.ControlPlaneBlockingStub adminControl;
  static TimeSeriesGrpc.TimeSeriesBlockingStub adminData;

  @BeforeAll
  static void start() throws Exception {
    Path tokenFile = Files.createTempFile("varve-token", "");
    Files.writeString(tokenFile, PAYMENTS_ADMIN + "\n");
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(
        config,
        """
        server:
          auth:
            bearerTokens: ["%s"]
            tokens:
              - name: orders-rw
                token: %s
                permissions: [read, write]
                namespaces: [perm_orders, "perm_orders_*"]
              - name: payments-admin
                tokenFile: %s
                permissions: [admin]
                namespaces: [perm_payments, "perm_new_*"]
              - name: prometheus
                token: %s
                permissions: [metrics]
              - name: docs-reader
                token: %s
                permissions: [docs]
            authenticateMetrics: true
            authenticateDocs: true
        """
            .formatted(ROOT, ORDERS_RW, tokenFile, PROMETHEUS, DOCS));
    server =
        new TestServer(
            ServerSettings.load(config),
            "varve_permissions_it",
            ORDERS,
            PAYMENTS,
            "perm_orders_eu",
            "perm_new_a",
            "perm_new_b",
            "perm_payments_x");
    for (String ns : List.of(ORDERS, PAYMENTS)) {
      assertThat(post("CreateNamespace", create(ns), ROOT).statusCode()).isEqualTo(200);
    }
    t = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
    for (String ns : List.of(ORDERS, PAYMENTS)) {
      assertThat(
              post(
                      "WriteEventRecordsSync",
                      write(ns, List.of(event("s", t, "original", "k", "v"))).toString(),
                      ROOT)
                  .statusCode())
          .isEqualTo(200);
    }
    ordersData = stub(TimeSeriesGrpc.TimeSeriesBlockingStub.class, ORDERS_RW);
    ordersControl = stub(ControlPlaneGrpc.ControlPlaneBlockingStub.class, ORDERS_RW);
    adminControl = stub(ControlPlaneGrpc.ControlPlaneBlockingStub.class, PAYMENTS_ADMIN);
    adminData = stub(TimeSeriesGrpc.TimeSeriesBlockingStub.class, PAYMENTS_ADMIN);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  // --- HTTP/JSON

  @Test
  void json_read_rpcs_follow_the_tokens_namespaces() throws Exception {
    HttpResponse<String> read = post("ReadEventRecords", readBody(ORDERS), ORDERS_RW);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(Events.ids(json(read))).containsExactly("original");
    assertThat(post("GetNamespace", "{\"namespace\": \"" + ORDERS + "\"}", ORDERS_RW).statusCode())
        .isEqualTo(200);
    // without an index store, search answers from its handler (412), past the permission check
    assertThat(post("SearchEventRecords", searchBody(ORDERS), ORDERS_RW).statusCode())
        .isEqualTo(412);
    assertThat(post("AggregateEventRecords", aggregateBody(ORDERS), ORDERS_RW).statusCode())
        .isEqualTo(412);

    denied(
        post("ReadEventRecords", readBody(PAYMENTS), ORDERS_RW),
        PAYMENTS,
        "ReadEventRecords",
        "read");
    denied(
        post("GetNamespace", "{\"namespace\": \"" + PAYMENTS + "\"}", ORDERS_RW),
        PAYMENTS,
        "GetNamespace",
        "read");
    denied(
        post("SearchEventRecords", searchBody(PAYMENTS), ORDERS_RW),
        PAYMENTS,
        "SearchEventRecords",
        "read");
    denied(
        post("AggregateEventRecords", aggregateBody(PAYMENTS), ORDERS_RW),
        PAYMENTS,
        "AggregateEventRecords",
        "read");
    // admin does not include read
    denied(
        post("ReadEventRecords", readBody(PAYMENTS), PAYMENTS_ADMIN),
        PAYMENTS,
        "ReadEventRecords",
        "read");
    // a namespace that does not exist is refused the same way: a token learns nothing of it
    denied(
        post("GetNamespace", "{\"namespace\": \"perm_secret\"}", ORDERS_RW),
        "perm_secret",
        "GetNamespace",
        "read");
  }

  @Test
  void json_writes_are_refused_outside_the_grant_and_write_nothing() throws Exception {
    HttpResponse<String> allowed =
        post(
            "WriteEventRecordsSync",
            write(ORDERS, List.of(event("json", t, "allowed", "k", "v"))).toString(),
            ORDERS_RW);
    assertThat(allowed.statusCode()).isEqualTo(200);
    assertThat(json(allowed).path("writtenCount").asInt()).isEqualTo(1);

    denied(
        post(
            "WriteEventRecordsSync",
            write(PAYMENTS, List.of(event("json", t, "refused", "k", "v"))).toString(),
            ORDERS_RW),
        PAYMENTS,
        "WriteEventRecordsSync",
        "write");
    denied(
        post(
            "WriteEventRecordsSync",
            write(PAYMENTS, List.of(event("json", t, "refused", "k", "v"))).toString(),
            PAYMENTS_ADMIN),
        PAYMENTS,
        "WriteEventRecordsSync",
        "write");

    assertThat(
            Events.ids(
                json(
                    post(
                        "ReadEventRecords",
                        Events.read(ORDERS, "json", t, t.plusSeconds(1)).toString(),
                        ROOT))))
        .containsExactly("allowed");
    assertThat(
            Events.ids(
                json(
                    post(
                        "ReadEventRecords",
                        Events.read(PAYMENTS, "json", t, t.plusSeconds(1)).toString(),
                        ROOT))))
        .isEmpty();
  }

  @Test
  void json_admin_rpcs_need_admin_on_the_namespace_and_change_nothing_when_refused()
      throws Exception {
    long version =
        json(post("GetNamespace", "{\"namespace\": \"" + ORDERS + "\"}", ROOT))
            .path("version")
            .asLong();

    denied(post("UpdateNamespace", create(ORDERS), ORDERS_RW), ORDERS, "UpdateNamespace", "admin");
    denied(
        post("CreateNamespace", create("perm_orders_eu"), ORDERS_RW),
        "perm_orders_eu",
        "CreateNamespace",
        "admin");
    denied(
        post("CreateNamespace", create("perm_payments_x"), PAYMENTS_ADMIN),
        "perm_payments_x",
        "CreateNamespace",
        "admin");
    denied(
        post("BackfillIndex", backfillBody(ORDERS), ORDERS_RW), ORDERS, "BackfillIndex", "admin");

    assertThat(
            json(post("GetNamespace", "{\"namespace\": \"" + ORDERS + "\"}", ROOT))
                .path("version")
                .asLong())
        .isEqualTo(version);
    assertThat(post("GetNamespace", "{\"namespace\": \"perm_orders_eu\"}", ROOT).statusCode())
        .isEqualTo(404);
    assertThat(post("GetNamespace", "{\"namespace\": \"perm_payments_x\"}", ROOT).statusCode())
        .isEqualTo(404);

    HttpResponse<String> created = post("CreateNamespace", create("perm_new_a"), PAYMENTS_ADMIN);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    long before =
        json(post("GetNamespace", "{\"namespace\": \"" + PAYMENTS + "\"}", ROOT))
            .path("version")
            .asLong();
    HttpResponse<String> updated = post("UpdateNamespace", create(PAYMENTS), PAYMENTS_ADMIN);
    assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
    assertThat(json(updated).path("version").asLong()).isEqualTo(before + 1);
    // no index storage: the backfill's own answer (412), past the permission check
    assertThat(post("BackfillIndex", backfillBody(PAYMENTS), PAYMENTS_ADMIN).statusCode())
        .isEqualTo(412);
  }

  @Test
  void list_namespaces_shows_only_what_the_token_may_read() throws Exception {
    assertThat(names(json(post("ListNamespaces", "{}", ORDERS_RW)))).containsExactly(ORDERS);
    assertThat(names(json(post("ListNamespaces", "{}", PAYMENTS_ADMIN)))).isEmpty();
    assertThat(names(json(post("ListNamespaces", "{}", ROOT)))).contains(ORDERS, PAYMENTS);
    assertThat(
            ordersControl
                .listNamespaces(ListNamespacesRequest.getDefaultInstance())
                .getNamespacesList())
        .extracting(Namespace::getNamespace)
        .containsExactly(ORDERS);
    assertThat(
            adminControl
                .listNamespaces(ListNamespacesRequest.getDefaultInstance())
                .getNamespacesList())
        .isEmpty();
  }

  @Test
  void unknown_or_missing_tokens_are_unauthenticated() throws Exception {
    for (String token :
        new String[] {null, "not-a-token", ORDERS_RW + "x", PROMETHEUS.substring(1)}) {
      HttpResponse<String> reply = post("ListNamespaces", "{}", token);
      assertThat(reply.statusCode()).isEqualTo(401);
      assertThat(json(reply).path("error").path("code").asText()).isEqualTo("UNAUTHENTICATED");
    }
    assertThatThrownBy(
            () ->
                stub(ControlPlaneGrpc.ControlPlaneBlockingStub.class, "not-a-token")
                    .listNamespaces(ListNamespacesRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
  }

  // --- gRPC

  @Test
  void grpc_data_plane_follows_the_tokens_grant() {
    assertThat(ordersData.readEventRecords(readRequest(ORDERS)).getEventsList())
        .extracting(Event::getEventId)
        .contains("original");
    assertThat(
            ordersData
                .writeEventRecordsSync(writeRequest(ORDERS, "grpc-allowed"))
                .getWrittenCount())
        .isEqualTo(1);
    grpcCode(
        () -> ordersData.searchEventRecords(searchRequest(ORDERS)),
        Status.Code.FAILED_PRECONDITION);
    grpcCode(
        () -> ordersData.aggregateEventRecords(aggregateRequest(ORDERS)),
        Status.Code.FAILED_PRECONDITION);

    grpcDenied(() -> ordersData.readEventRecords(readRequest(PAYMENTS)), PAYMENTS, "read");
    grpcDenied(
        () -> ordersData.writeEventRecordsSync(writeRequest(PAYMENTS, "grpc-refused")),
        PAYMENTS,
        "write");
    grpcDenied(
        () -> adminData.writeEventRecordsSync(writeRequest(PAYMENTS, "grpc-refused")),
        PAYMENTS,
        "write");
    grpcDenied(() -> ordersData.searchEventRecords(searchRequest(PAYMENTS)), PAYMENTS, "read");
    grpcDenied(
        () -> ordersData.aggregateEventRecords(aggregateRequest(PAYMENTS)), PAYMENTS, "read");

    TimeSeriesGrpc.TimeSeriesBlockingStub root =
        stub(TimeSeriesGrpc.TimeSeriesBlockingStub.class, ROOT);
    assertThat(root.readEventRecords(readRequest(PAYMENTS)).getEventsList())
        .extracting(Event::getEventId)
        .containsExactly("original");
    assertThat(root.readEventRecords(readRequest(ORDERS)).getEventsList())
        .extracting(Event::getEventId)
        .contains("grpc-allowed");
  }

  @Test
  void grpc_control_plane_follows_the_tokens_grant() {
    ControlPlaneGrpc.ControlPlaneBlockingStub root =
        stub(ControlPlaneGrpc.ControlPlaneBlockingStub.class, ROOT);
    long version =
        root.getNamespace(GetNamespaceRequest.newBuilder().setNamespace(ORDERS).build())
            .getVersion();

    assertThat(
            ordersControl
                .getNamespace(GetNamespaceRequest.newBuilder().setNamespace(ORDERS).build())
                .getNamespace())
        .isEqualTo(ORDERS);
    grpcDenied(
        () ->
            ordersControl.getNamespace(
                GetNamespaceRequest.newBuilder().setNamespace(PAYMENTS).build()),
        PAYMENTS,
        "read");
    grpcDenied(
        () ->
            adminControl.getNamespace(
                GetNamespaceRequest.newBuilder().setNamespace(PAYMENTS).build()),
        PAYMENTS,
        "read");
    grpcDenied(
        () ->
            ordersControl.updateNamespace(
                UpdateNamespaceRequest.newBuilder()
                    .setNamespace(ORDERS)
                    .addPersistenceConfiguration(primary())
                    .build()),
        ORDERS,
        "admin");
    grpcDenied(
        () ->
            ordersControl.createNamespace(
                CreateNamespaceRequest.newBuilder()
                    .setNamespace("perm_orders_eu")
                    .addPersistenceConfiguration(primary())
                    .build()),
        "perm_orders_eu",
        "admin");
    grpcDenied(() -> ordersControl.backfillIndex(backfillRequest(ORDERS)), ORDERS, "admin");

    assertThat(
            root.getNamespace(GetNamespaceRequest.newBuilder().setNamespace(ORDERS).build())
                .getVersion())
        .isEqualTo(version);
    grpcCode(
        () ->
            root.getNamespace(
                GetNamespaceRequest.newBuilder().setNamespace("perm_orders_eu").build()),
        Status.Code.NOT_FOUND);

    assertThat(
            adminControl
                .createNamespace(
                    CreateNamespaceRequest.newBuilder()
                        .setNamespace("perm_new_b")
                        .addPersistenceConfiguration(primary())
                        .build())
                .getNamespace())
        .isEqualTo("perm_new_b");
    long before =
        root.getNamespace(GetNamespaceRequest.newBuilder().setNamespace(PAYMENTS).build())
            .getVersion();
    assertThat(
            adminControl
                .updateNamespace(
                    UpdateNamespaceRequest.newBuilder()
                        .setNamespace(PAYMENTS)
                        .addPersistenceConfiguration(primary())
                        .build())
                .getVersion())
        .isGreaterThan(before);
    grpcCode(
        () -> adminControl.backfillIndex(backfillRequest(PAYMENTS)),
        Status.Code.FAILED_PRECONDITION);
  }

  // --- /metrics and /docs/

  @Test
  void metrics_and_docs_need_their_permission_when_authentication_is_on() throws Exception {
    for (String page : List.of("/metrics", "/docs/", "/docs/specification.json")) {
      HttpResponse<String> anonymous = get(page, null);
      assertThat(anonymous.statusCode()).as(page).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
          .as(page)
          .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
      assertThat(get(page, "Bearer not-a-token").statusCode()).as(page).isEqualTo(401);
      assertThat(get(page, "Bearer " + ORDERS_RW).statusCode()).as(page).isEqualTo(403);
      assertThat(get(page, "Bearer " + ROOT).statusCode()).as(page).isEqualTo(200);
    }
    HttpResponse<String> metrics = get("/metrics", "Bearer " + PROMETHEUS);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).contains("varve_api_requests_total");
    assertThat(get("/metrics", basic(PROMETHEUS)).statusCode()).isEqualTo(200);
    assertThat(get("/metrics", "Bearer " + DOCS).statusCode()).isEqualTo(403);
    HttpResponse<String> docs = get("/docs/", basic(DOCS));
    assertThat(docs.statusCode()).isEqualTo(200);
    assertThat(get("/docs/specification.json", "Bearer " + DOCS).body())
        .contains("varve.timeseries.v1.ControlPlane");
    assertThat(get("/docs/", "Bearer " + PROMETHEUS).statusCode()).isEqualTo(403);
    assertThat(get("/health", null).statusCode()).isEqualTo(200);
  }

  // --- helpers

  static void denied(HttpResponse<String> reply, String namespace, String rpc, String permission)
      throws Exception {
    assertThat(reply.statusCode()).as(reply.body()).isEqualTo(403);
    JsonNode error = json(reply).path("error");
    assertThat(error.path("code").asText()).isEqualTo("PERMISSION_DENIED");
    assertThat(error.path("field").asText()).isEqualTo("namespace");
    assertThat(error.path("message").asText())
        .startsWith(
            "namespace: \""
                + namespace
                + "\" ("
                + rpc
                + " needs the "
                + permission
                + " permission on it");
  }

  static void grpcDenied(ThrowingCallable call, String namespace, String permission) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
              assertThat(e.getStatus().getDescription())
                  .startsWith("namespace: \"" + namespace + "\"")
                  .contains("needs the " + permission + " permission");
            });
  }

  static void grpcCode(ThrowingCallable call, Status.Code code) {
    Consumer<StatusRuntimeException> check =
        e -> assertThat(e.getStatus().getCode()).as(e.getStatus().toString()).isEqualTo(code);
    assertThatThrownBy(call).isInstanceOfSatisfying(StatusRuntimeException.class, check);
  }

  static <T> T stub(Class<T> type, String token) {
    return GrpcClients.builder(server.base()).auth(AuthToken.ofOAuth2(token)).build(type);
  }

  static HttpResponse<String> post(String rpc, String body, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.base() + "/v1/" + rpc))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(String path, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.base() + path)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String basic(String token) {
    return "Basic "
        + Base64.getEncoder().encodeToString(("anyone:" + token).getBytes(StandardCharsets.UTF_8));
  }

  static JsonNode json(HttpResponse<String> reply) throws Exception {
    return TestServer.JSON.readTree(reply.body());
  }

  static List<String> names(JsonNode list) {
    return list.path("namespaces").findValuesAsText("namespace");
  }

  static String create(String namespace) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\"}]}";
  }

  static String readBody(String namespace) {
    return Events.read(namespace, "s", t, t.plusSeconds(1)).toString();
  }

  static String interval() {
    return "{\"start\": \"" + t + "\", \"end\": \"" + t.plusSeconds(1) + "\"}";
  }

  static String searchBody(String namespace) {
    return "{\"namespace\": \"" + namespace + "\", \"timeInterval\": " + interval() + "}";
  }

  static String aggregateBody(String namespace) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"timeInterval\": "
        + interval()
        + ", \"aggregationQuery\": {\"count\": {}}}";
  }

  static String backfillBody(String namespace) {
    return "{\"namespace\": \"" + namespace + "\", \"timeInterval\": " + interval() + "}";
  }

  static PersistenceConfiguration primary() {
    return PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE").build();
  }

  static Timestamp ts(Instant i) {
    return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
  }

  static TimeInterval grpcInterval() {
    return TimeInterval.newBuilder().setStart(ts(t)).setEnd(ts(t.plusSeconds(1))).build();
  }

  static ReadEventRecordsRequest readRequest(String namespace) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeSeriesId("s")
        .setTimeInterval(grpcInterval())
        .build();
  }

  static WriteEventRecordsRequest writeRequest(String namespace, String id) {
    return WriteEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .addEvents(
            Event.newBuilder()
                .setTimeSeriesId("s")
                .setEventTime(ts(t))
                .setEventId(id)
                .addEventItems(
                    EventItem.newBuilder()
                        .setEventItemKey(ByteString.copyFromUtf8("k"))
                        .setEventItemValue(ByteString.copyFromUtf8("v"))))
        .build();
  }

  static SearchEventRecordsRequest searchRequest(String namespace) {
    return SearchEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeInterval(grpcInterval())
        .build();
  }

  static AggregateEventRecordsRequest aggregateRequest(String namespace) {
    return AggregateEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeInterval(grpcInterval())
        .setAggregationQuery(
            AggregationQuery.newBuilder()
                .setCount(io.varve.api.timeseries.v1.CountAggregation.getDefaultInstance()))
        .build();
  }

  static BackfillIndexRequest backfillRequest(String namespace) {
    return BackfillIndexRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeInterval(grpcInterval())
        .build();
  }
}
