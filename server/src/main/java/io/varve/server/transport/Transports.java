package io.varve.server.transport;

import com.linecorp.armeria.common.metric.MeterIdPrefixFunction;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.Route;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.ServiceBindingBuilder;
import com.linecorp.armeria.server.grpc.GrpcService;
import com.linecorp.armeria.server.metric.MetricCollectingService;
import io.grpc.ServiceDescriptor;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.server.admission.AdmissionControl;
import io.varve.server.admission.DecodeQueue;
import io.varve.server.config.ServerSettings;
import io.varve.server.controlplane.ControlPlaneHandler;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.dataplane.SearchHandler;
import io.varve.server.error.ErrorMapping;
import io.varve.server.handshake.Handshakes;
import io.varve.server.index.Backfill;
import io.varve.server.json.ProtoJson;
import io.varve.server.kv.KeyValueHandler;
import io.varve.server.metrics.SloCounters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Registers the API on a server: gRPC services (with gRPC-Web and unframed JSON for the docs page)
 * and the HTTP/JSON routes {@code POST /v1/<RpcName>}, both behind bearer-token authentication when
 * tokens are configured ({@link TokenAuthentication}), both made from the same permission-checked
 * RPCs of {@link ApiCalls}.
 */
public final class Transports {

  /**
   * How long the server gives a request, body included; beyond it the answer is 504
   * DEADLINE_EXCEEDED (gRPC: DEADLINE_EXCEEDED).
   */
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  /**
   * HTTP/2 streams one connection may reset (RST_STREAM) per minute before the server closes it,
   * the guard against rapid-reset floods. The HTTP layer's own default (400) is too low for the
   * clients of this API: a hedged call cancels its loser, and a call that reaches its deadline is
   * cancelled, so a busy client resets hundreds of streams a minute in normal work, and closing its
   * connection fails every call on it. A flood resets thousands a second.
   */
  public static final int MAX_RESETS_PER_MINUTE = 20_000;

  /**
   * The gRPC services of the API, as generated from the protos. Every method of each is served over
   * gRPC and at {@code POST /v1/<RpcName>}, answered as {@link ApiCalls} says.
   */
  public static final List<ServiceDescriptor> SERVICES =
      List.of(
          ControlPlaneGrpc.getServiceDescriptor(),
          TimeSeriesGrpc.getServiceDescriptor(),
          KeyValueGrpc.getServiceDescriptor());

  private Transports() {}

  public static void register(
      ServerBuilder sb,
      ControlPlaneHandler control,
      Backfill backfill,
      DataPlaneHandler data,
      SearchHandler search,
      KeyValueHandler kv,
      Handshakes handshakes,
      SloCounters slo,
      ServerSettings settings,
      AdmissionControl admission,
      DecodeQueue decoding) {
    TokenAuthentication authentication = new TokenAuthentication(settings.auth());
    List<Rpc<?, ?>> rpcs =
        ApiCalls.bind(
            SERVICES,
            ApiCalls.ALL,
            new ApiHandlers(control, backfill, data, search, kv, handshakes, slo),
            settings.auth().enabled());
    LargeValueLimits large = LargeValueLimits.of(settings);
    ProtoJson codec = new ProtoJson(large.largest());
    ProtoJsonMarshaller jsonOnGrpcPaths = new ProtoJsonMarshaller(codec);
    List<ServiceDescriptor> others =
        SERVICES.stream().filter(s -> s != KeyValueGrpc.getServiceDescriptor()).toList();
    GrpcService grpc = grpc(others, rpcs, settings.limits().maxRequestBytes(), jsonOnGrpcPaths);
    // KeyValue carries large values: its own gRPC service
    GrpcService kvGrpc =
        grpc(
            List.of(KeyValueGrpc.getServiceDescriptor()), rpcs, large.grpcBytes(), jsonOnGrpcPaths);
    JsonRpcService json = new JsonRpcService(rpcs, codec, decoding);
    Function<? super HttpService, ? extends HttpService> auth = authentication.api();
    Function<? super HttpService, MetricCollectingService> metrics =
        MetricCollectingService.newDecorator(MeterIdPrefixFunction.ofDefault("varve.api"));
    int limit = settings.limits().maxRequestBytes();
    Function<? super HttpService, ? extends HttpService> grpcAdmission =
        admitted(admission, AdmissionControl.Transport.GRPC);
    // a message over its limit is refused from its length prefix (UnaryFraming): leave room for
    // framing. Of the decorators of a gRPC binding, the first is innermost: the framing is checked
    // on the body admission has gathered.
    sb.maxRequestLength(limit + 1024 * 1024).errorHandler(new ErrorResponses(limit));
    bindGrpc(
        sb,
        grpc,
        limit + 1024L * 1024,
        decoding,
        List.of(
            UnaryFraming.decorator(limit, "timeseries.limits.maxRequestBytes"),
            grpcAdmission,
            metrics,
            auth));
    // KeyValue carries large values: its own message limit
    bindGrpc(
        sb,
        kvGrpc,
        large.grpcBytes() + 1024L * 1024,
        decoding,
        List.of(
            UnaryFraming.decorator(large.grpcBytes(), LargeValueLimits.GRPC_LIMIT),
            grpcAdmission,
            metrics,
            auth));
    // the KeyValue RPCs before the others: the first route that matches a request serves it
    sb.route()
        .post(
            "regex:^/v1/(?<rpc>"
                + KeyValueGrpc.getServiceDescriptor().getMethods().stream()
                    .map(m -> m.getBareMethodName())
                    .collect(Collectors.joining("|"))
                + ")$")
        .maxRequestLength(large.jsonBytes())
        .decorator(admitted(admission, AdmissionControl.Transport.JSON))
        .decorator(metrics)
        .decorator(auth)
        .build(json);
    sb.route()
        .post("/v1/{rpc}")
        .maxRequestLength(limit)
        .decorator(admitted(admission, AdmissionControl.Transport.JSON))
        .decorator(metrics)
        .decorator(auth)
        .build(json);
    sb.route().get("/v1/{rpc}").decorator(auth).build(json);
  }

  private static GrpcService grpc(
      List<ServiceDescriptor> services,
      List<Rpc<?, ?>> rpcs,
      int maxMessageBytes,
      ProtoJsonMarshaller json) {
    return GrpcService.builder()
        .addServiceDefinitions(GrpcServices.of(services, rpcs))
        .maxRequestMessageLength(maxMessageBytes)
        .exceptionHandler((ctx, status, cause, metadata) -> ErrorMapping.grpcLayerFailure(cause))
        .maxResponseMessageLength(Integer.MAX_VALUE)
        .enableUnframedRequests(true)
        // JSON on the gRPC paths is read and written as on /v1/: same rules, limits and errors
        .jsonMarshallerFactory(service -> json)
        // methods run on a blocking executor, not on the event loop; the message itself is parsed
        // on the event loop by the transport before that (a profile of PutItems shows it)
        .useBlockingTaskExecutor(true)
        .build();
  }

  /**
   * Binds the routes of a gRPC service in two groups: its write methods are validated and started
   * on {@code decoding} (their messages arrive parsed), whose wait admission measures (a write that
   * would wait past its caller's deadline is refused instead); its other methods on the server's
   * shared blocking pool, so that a small read never waits behind writes.
   */
  private static void bindGrpc(
      ServerBuilder sb,
      GrpcService service,
      long maxRequestLength,
      DecodeQueue decoding,
      List<Function<? super HttpService, ? extends HttpService>> decorators) {
    Map<Boolean, List<Route>> byKind =
        service.routes().stream()
            .collect(
                Collectors.partitioningBy(
                    route ->
                        AdmissionControl.isWrite(AdmissionControl.rpcOf(route.patternString()))));
    byKind.forEach(
        (writes, routes) -> {
          if (routes.isEmpty()) {
            return;
          }
          ServiceBindingBuilder binding = sb.route();
          routes.forEach(binding::addRoute);
          binding.maxRequestLength(maxRequestLength);
          if (writes) {
            binding.blockingTaskExecutor(decoding.executor(), false);
          }
          decorators.forEach(binding::decorator);
          binding.build(service);
        });
  }

  /** Admission runs after authentication: an unauthenticated caller holds none of the budget. */
  private static Function<? super HttpService, ? extends HttpService> admitted(
      AdmissionControl admission, AdmissionControl.Transport transport) {
    return service -> new Admission(service, admission, transport);
  }
}
