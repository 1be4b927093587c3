package io.varve.server.transport;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.metric.MetricCollectingService;
import com.linecorp.armeria.common.metric.MeterIdPrefixFunction;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.auth.AuthService;
import com.linecorp.armeria.server.grpc.GrpcService;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.server.config.ServerSettings;
import io.varve.server.controlplane.ControlPlaneHandler;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.api.timeseries.v1.DistinctValues;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.dataplane.SearchHandler;
import io.varve.server.index.Backfill;
import java.util.Set;
import java.util.function.Function;

/**
 * Registers the API on a server: gRPC services (with gRPC-Web and unframed JSON for the docs
 * page) and the HTTP/JSON routes {@code POST /v1/<RpcName>}, both behind bearer-token
 * authentication when tokens are configured.
 */
public final class Transports {

  private Transports() {}

  public static void register(ServerBuilder sb, ControlPlaneHandler control, Backfill backfill, DataPlaneHandler data,
      SearchHandler search, ServerSettings settings) {
    GrpcService grpc = GrpcService.builder()
        .addService(new ControlPlaneGrpcService(control, backfill))
        .addService(new TimeSeriesGrpcService(data, search))
        .maxRequestMessageLength(settings.limits().maxRequestBytes())
        .exceptionHandler((ctx, status, cause, metadata) -> ErrorMapping.grpcDecodingFailure(cause))
        .maxResponseMessageLength(Integer.MAX_VALUE)
        .enableUnframedRequests(true)
        .build();
    JsonRpcService json = new JsonRpcService(Set.of(
        field(ReadEventRecordsResponse.getDescriptor(), "events"),
        field(ReadEventRecordsResponse.getDescriptor(), "next_page_token"),
        field(WriteEventRecordsResponse.getDescriptor(), "written_count"),
        field(WriteEventRecordsResponse.getDescriptor(), "written_indexes"),
        field(WriteEventRecordsResponse.getDescriptor(), "errors"),
        field(ListNamespacesResponse.getDescriptor(), "namespaces"),
        field(Namespace.getDescriptor(), "time_slices"),
        field(SearchEventRecordsResponse.getDescriptor(), "events"),
        field(SearchEventRecordsResponse.getDescriptor(), "next_page_token"),
        field(DistinctValues.getDescriptor(), "values"),
        field(DistinctValues.getDescriptor(), "next_page_token"),
        field(BackfillIndexResponse.getDescriptor(), "events_read"),
        field(BackfillIndexResponse.getDescriptor(), "events_indexed"),
        field(BackfillIndexResponse.getDescriptor(), "unparsable_values"),
        field(BackfillIndexResponse.getDescriptor(), "events_failed")), settings.limits().maxRequestBytes())
        .add("CreateNamespace", CreateNamespaceRequest.getDefaultInstance(), control::create)
        .add("GetNamespace", GetNamespaceRequest.getDefaultInstance(), control::get)
        .add("ListNamespaces", ListNamespacesRequest.getDefaultInstance(), control::list)
        .add("UpdateNamespace", UpdateNamespaceRequest.getDefaultInstance(), control::update)
        .add("WriteEventRecordsSync", WriteEventRecordsRequest.getDefaultInstance(), data::writeSync)
        .add("BackfillIndex", BackfillIndexRequest.getDefaultInstance(), backfill::run)
        .add("ReadEventRecords", ReadEventRecordsRequest.getDefaultInstance(), data::read)
        .add("SearchEventRecords", SearchEventRecordsRequest.getDefaultInstance(), search::search)
        .add("AggregateEventRecords", AggregateEventRecordsRequest.getDefaultInstance(), search::aggregate);
    Function<? super HttpService, ? extends HttpService> auth = authentication(settings);
    Function<? super HttpService, MetricCollectingService> metrics =
        MetricCollectingService.newDecorator(MeterIdPrefixFunction.ofDefault("varve.api"));
    int limit = settings.limits().maxRequestBytes();
    // gRPC answers RESOURCE_EXHAUSTED itself when a message exceeds its limit: leave room for framing
    sb.maxRequestLength(limit + 1024 * 1024)
        .errorHandler(new JsonErrors(limit))
        .service(grpc, auth, metrics);
    sb.route().post("/v1/{rpc}").maxRequestLength(limit).decorator(metrics).decorator(auth).build(json);
    sb.route().get("/v1/{rpc}").decorator(auth).build(json);
  }

  private static Function<? super HttpService, ? extends HttpService> authentication(ServerSettings settings) {
    if (settings.bearerTokens().isEmpty()) {
      return Function.identity();
    }
    Set<String> tokens = Set.copyOf(settings.bearerTokens());
    return AuthService.builder()
        .addOAuth2((ctx, token) -> java.util.concurrent.CompletableFuture.completedFuture(
            tokens.contains(token.accessToken())))
        .onFailure((delegate, ctx, req, cause) -> JsonErrors.response(HttpStatus.UNAUTHORIZED, "UNAUTHENTICATED", "",
            "missing or unknown bearer token (expected: an Authorization: Bearer <token> header)"))
        .newDecorator();
  }

  private static FieldDescriptor field(com.google.protobuf.Descriptors.Descriptor type, String name) {
    return type.findFieldByName(name);
  }
}
