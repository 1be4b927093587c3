package io.varve.server.transport;

import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.metric.MetricCollectingService;
import com.linecorp.armeria.common.metric.MeterIdPrefixFunction;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.grpc.GrpcService;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.server.config.ServerSettings;
import io.varve.server.controlplane.ControlPlaneHandler;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.json.ProtoJson;
import io.varve.server.dataplane.SearchHandler;
import io.varve.server.index.Backfill;
import io.varve.server.admission.AdmissionControl;
import java.time.Duration;
import java.util.function.Function;

/**
 * Registers the API on a server: gRPC services (with gRPC-Web and unframed JSON for the docs
 * page) and the HTTP/JSON routes {@code POST /v1/<RpcName>}, both behind bearer-token
 * authentication when tokens are configured ({@link TokenAuthentication}) and both calling the
 * same permission-checked {@link ApiCalls}.
 */
public final class Transports {

  /**
   * How long the server gives a request, body included; beyond it the answer is 504
   * DEADLINE_EXCEEDED (gRPC: DEADLINE_EXCEEDED).
   */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private Transports() {}

  public static void register(ServerBuilder sb, ControlPlaneHandler control, Backfill backfill, DataPlaneHandler data,
      SearchHandler search, ServerSettings settings, AdmissionControl admission) {
    TokenAuthentication authentication = new TokenAuthentication(settings.auth());
    ApiCalls calls = new ApiCalls(control, backfill, data, search, settings.auth().enabled());
    ProtoJson codec = new ProtoJson(settings.limits().maxRequestBytes());
    ProtoJsonMarshaller jsonOnGrpcPaths = new ProtoJsonMarshaller(codec);
    GrpcService grpc = GrpcService.builder()
        .addService(new ControlPlaneGrpcService(calls))
        .addService(new TimeSeriesGrpcService(calls))
        .maxRequestMessageLength(settings.limits().maxRequestBytes())
        .exceptionHandler((ctx, status, cause, metadata) -> ErrorMapping.grpcDecodingFailure(cause))
        .maxResponseMessageLength(Integer.MAX_VALUE)
        .enableUnframedRequests(true)
        // JSON on the gRPC paths is read and written as on /v1/: same rules, limits and errors
        .jsonMarshallerFactory(service -> jsonOnGrpcPaths)
        // decoding a message of megabytes must not hold an event loop (see JsonRpcService)
        .useBlockingTaskExecutor(true)
        .build();
    JsonRpcService json = new JsonRpcService(codec)
        .add("CreateNamespace", CreateNamespaceRequest.getDefaultInstance(), calls.createNamespace::apply)
        .add("GetNamespace", GetNamespaceRequest.getDefaultInstance(), calls.getNamespace::apply)
        .add("ListNamespaces", ListNamespacesRequest.getDefaultInstance(), calls.listNamespaces::apply)
        .add("UpdateNamespace", UpdateNamespaceRequest.getDefaultInstance(), calls.updateNamespace::apply)
        .add("WriteEventRecordsSync", WriteEventRecordsRequest.getDefaultInstance(), calls.writeEventRecordsSync::apply)
        .add("BackfillIndex", BackfillIndexRequest.getDefaultInstance(), calls.backfillIndex::apply)
        .add("ReadEventRecords", ReadEventRecordsRequest.getDefaultInstance(), calls.readEventRecords::apply)
        .add("SearchEventRecords", SearchEventRecordsRequest.getDefaultInstance(), calls.searchEventRecords::apply)
        .add("AggregateEventRecords", AggregateEventRecordsRequest.getDefaultInstance(),
            calls.aggregateEventRecords::apply);
    Function<? super HttpService, ? extends HttpService> auth = authentication.api();
    Function<? super HttpService, MetricCollectingService> metrics =
        MetricCollectingService.newDecorator(MeterIdPrefixFunction.ofDefault("varve.api"));
    int limit = settings.limits().maxRequestBytes();
    // gRPC answers RESOURCE_EXHAUSTED itself when a message exceeds its limit: leave room for framing
    sb.maxRequestLength(limit + 1024 * 1024)
        .errorHandler(new JsonErrors(limit))
        .service(grpc, admitted(admission, AdmissionControl.Transport.GRPC), auth, metrics);
    sb.route().post("/v1/{rpc}").maxRequestLength(limit).decorator(admitted(admission, AdmissionControl.Transport.JSON))
        .decorator(metrics).decorator(auth).build(json);
    sb.route().get("/v1/{rpc}").decorator(auth).build(json);
  }

  /** Admission runs after authentication: an unauthenticated caller holds none of the budget. */
  private static Function<? super HttpService, ? extends HttpService> admitted(AdmissionControl admission,
      AdmissionControl.Transport transport) {
    Admission decorator = new Admission(admission, transport);
    return service -> service.decorate(decorator);
  }
}
