package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The table of RPCs covers the served services exactly, or the server does not start. */
class ApiCallsTest {

  @Test
  void every_method_of_the_served_services_is_bound_once() {
    ApiCalls.check(Transports.SERVICES, ApiCalls.ALL);

    assertThat(ApiCalls.ALL)
        .extracting(call -> call.method().getFullMethodName())
        .containsExactlyInAnyOrderElementsOf(
            Transports.SERVICES.stream()
                .flatMap(service -> service.getMethods().stream())
                .map(MethodDescriptor::getFullMethodName)
                .toList());
  }

  @Test
  void a_method_without_a_handler_and_permission_keeps_the_server_from_starting() {
    List<ApiCall<?, ?>> table = new ArrayList<>(ApiCalls.ALL);
    table.removeIf(call -> call.method() == TimeSeriesGrpc.getSearchEventRecordsMethod());

    assertThatThrownBy(() -> ApiCalls.check(Transports.SERVICES, table))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "RPC varve.timeseries.v1.TimeSeries/SearchEventRecords has no handler and permission in ApiCalls");
    // gRPC's own check of a service definition refuses it too
    List<Rpc<?, ?>> rpcs = table.stream().<Rpc<?, ?>>map(ApiCallsTest::unanswered).toList();
    assertThatThrownBy(() -> GrpcServices.of(Transports.SERVICES, rpcs))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("SearchEventRecords");
  }

  @Test
  void a_method_bound_twice_or_outside_the_served_services_is_refused() {
    List<ApiCall<?, ?>> twice = new ArrayList<>(ApiCalls.ALL);
    twice.add(ApiCalls.ALL.get(0));

    assertThatThrownBy(() -> ApiCalls.check(Transports.SERVICES, twice))
        .hasMessage("RPC varve.timeseries.v1.ControlPlane/CreateNamespace is bound twice");
    assertThatThrownBy(
            () -> ApiCalls.check(List.of(TimeSeriesGrpc.getServiceDescriptor()), ApiCalls.ALL))
        .hasMessage(
            "RPC varve.timeseries.v1.ControlPlane/CreateNamespace is bound but its service is not served");
  }

  @Test
  void
      two_services_with_an_rpc_of_the_same_name_are_refused_as_their_json_route_would_be_ambiguous() {
    MethodDescriptor<GetNamespaceRequest, Namespace> same =
        MethodDescriptor.<GetNamespaceRequest, Namespace>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName("varve.other.v1.Other/GetNamespace")
            .setRequestMarshaller(ProtoUtils.marshaller(GetNamespaceRequest.getDefaultInstance()))
            .setResponseMarshaller(ProtoUtils.marshaller(Namespace.getDefaultInstance()))
            .build();
    List<ServiceDescriptor> services = new ArrayList<>(Transports.SERVICES);
    services.add(ServiceDescriptor.newBuilder("varve.other.v1.Other").addMethod(same).build());

    assertThatThrownBy(() -> ApiCalls.check(services, ApiCalls.ALL))
        .hasMessage(
            "two RPCs are named GetNamespace: "
                + "varve.timeseries.v1.ControlPlane/GetNamespace and varve.other.v1.Other/GetNamespace"
                + " (POST /v1/<RpcName> needs one)");
  }

  @Test
  void the_grpc_services_keep_the_proto_schema_the_docs_page_reads() {
    List<Rpc<?, ?>> rpcs = ApiCalls.ALL.stream().<Rpc<?, ?>>map(ApiCallsTest::unanswered).toList();

    List<ServerServiceDefinition> services = GrpcServices.of(Transports.SERVICES, rpcs);

    assertThat(services)
        .extracting(ServerServiceDefinition::getServiceDescriptor)
        .containsExactly(
            ControlPlaneGrpc.getServiceDescriptor(),
            TimeSeriesGrpc.getServiceDescriptor(),
            io.varve.api.kv.v1.KeyValueGrpc.getServiceDescriptor());
  }

  private static <Q extends Message, R extends Message> Rpc<Q, R> unanswered(ApiCall<Q, R> call) {
    return new Rpc<>(
        call.method(), request -> CompletableFuture.failedFuture(new AssertionError("not called")));
  }
}
