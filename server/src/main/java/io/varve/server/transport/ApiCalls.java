package io.varve.server.transport;

import static io.varve.server.transport.ApiCall.lists;
import static io.varve.server.transport.ApiCall.needs;

import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.CancelSliceRepartitionRequest;
import io.varve.api.timeseries.v1.CommitSliceRepartitionRequest;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.DeleteNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.ListTimeSlicesRequest;
import io.varve.api.timeseries.v1.PrepareSliceRepartitionRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.server.auth.Permission;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Every RPC of the API, written once: its generated gRPC method, the permission it needs and the
 * handler that answers it. Both transports are made from this table (gRPC by {@link GrpcServices},
 * {@code POST /v1/<RpcName>} by {@link JsonRpcService}), so both serve the same RPCs and refuse the
 * same calls, with PERMISSION_DENIED, before any work. A method of {@link Transports#SERVICES}
 * missing here, or bound twice, keeps the server from starting ({@link #bind}).
 */
final class ApiCalls {

  /** The table: one line per RPC, by service in the proto's order. */
  static final List<ApiCall<?, ?>> ALL =
      List.of(
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getCreateNamespaceMethod(),
              CreateNamespaceRequest::getNamespace,
              h -> h.control()::create),
          needs(
              Permission.READ,
              ControlPlaneGrpc.getGetNamespaceMethod(),
              GetNamespaceRequest::getNamespace,
              h -> h.control()::get),
          lists(
              Permission.READ,
              ControlPlaneGrpc.getListNamespacesMethod(),
              ApiCalls::keep,
              h -> h.control()::list),
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getUpdateNamespaceMethod(),
              UpdateNamespaceRequest::getNamespace,
              h -> h.control()::update),
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getBackfillIndexMethod(),
              BackfillIndexRequest::getNamespace,
              h -> h.backfill()::run),
          needs(
              Permission.READ,
              ControlPlaneGrpc.getListTimeSlicesMethod(),
              ListTimeSlicesRequest::getNamespace,
              h -> h.control()::listSlices),
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getDeleteNamespaceMethod(),
              DeleteNamespaceRequest::getNamespace,
              h -> h.control()::delete),
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getPrepareSliceRepartitionMethod(),
              PrepareSliceRepartitionRequest::getNamespace,
              h -> h.control()::prepareRepartition),
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getCommitSliceRepartitionMethod(),
              CommitSliceRepartitionRequest::getNamespace,
              h -> h.control()::commitRepartition),
          needs(
              Permission.ADMIN,
              ControlPlaneGrpc.getCancelSliceRepartitionMethod(),
              CancelSliceRepartitionRequest::getNamespace,
              h -> h.control()::cancelRepartition),
          needs(
              Permission.WRITE,
              TimeSeriesGrpc.getWriteEventRecordsSyncMethod(),
              WriteEventRecordsRequest::getNamespace,
              h -> h.data()::writeSync),
          needs(
              Permission.WRITE,
              TimeSeriesGrpc.getWriteEventRecordsMethod(),
              WriteEventRecordsRequest::getNamespace,
              h -> h.data()::write),
          needs(
              Permission.READ,
              TimeSeriesGrpc.getReadEventRecordsMethod(),
              ReadEventRecordsRequest::getNamespace,
              h -> h.data()::read),
          needs(
              Permission.READ,
              TimeSeriesGrpc.getSearchEventRecordsMethod(),
              SearchEventRecordsRequest::getNamespace,
              h -> h.search()::search),
          needs(
              Permission.READ,
              TimeSeriesGrpc.getAggregateEventRecordsMethod(),
              AggregateEventRecordsRequest::getNamespace,
              h -> h.search()::aggregate),
          needs(
              Permission.WRITE,
              KeyValueGrpc.getPutItemsMethod(),
              PutItemsRequest::getNamespace,
              h -> h.kv()::put),
          needs(
              Permission.READ,
              KeyValueGrpc.getGetItemsMethod(),
              GetItemsRequest::getNamespace,
              h -> h.kv()::get),
          needs(
              Permission.WRITE,
              KeyValueGrpc.getDeleteItemsMethod(),
              DeleteItemsRequest::getNamespace,
              h -> h.kv()::delete),
          needs(
              Permission.WRITE,
              KeyValueGrpc.getMutateItemsMethod(),
              MutateItemsRequest::getNamespace,
              h -> h.kv()::mutate),
          needs(
              Permission.READ,
              KeyValueGrpc.getScanItemsMethod(),
              ScanItemsRequest::getNamespace,
              h -> h.kv()::scan),
          // one handshake answers a namespace of either service, whichever service is asked
          needs(
              Permission.READ,
              TimeSeriesGrpc.getHandshakeMethod(),
              HandshakeRequest::getNamespace,
              h -> h.handshakes()::answer),
          needs(
              Permission.READ,
              KeyValueGrpc.getHandshakeMethod(),
              HandshakeRequest::getNamespace,
              h -> h.handshakes()::answer));

  /**
   * RPCs that more than one service serves as one: the handshake, which answers a namespace of
   * either service.
   */
  static final java.util.Set<String> SHARED = java.util.Set.of("Handshake");

  private ApiCalls() {}

  /**
   * Every RPC of {@code services}, answered by {@code handlers}, behind its permission check when
   * {@code authenticated}.
   *
   * @throws IllegalStateException when the table does not bind each method of {@code services}
   *     exactly once, or two services share an RPC name for different RPCs ({@code /v1/<RpcName>}
   *     would be ambiguous)
   */
  static List<Rpc<?, ?>> bind(
      List<ServiceDescriptor> services,
      List<ApiCall<?, ?>> table,
      ApiHandlers handlers,
      boolean authenticated) {
    check(services, table);
    return table.stream().<Rpc<?, ?>>map(call -> call.bind(handlers, authenticated)).toList();
  }

  /**
   * Refuses a table that does not bind each method of {@code services} exactly once, by a unique
   * name. The RPCs of {@link #SHARED} are the exception: every service that has one serves the same
   * RPC (same request and response messages, same permission, same handler), so that {@code POST
   * /v1/<RpcName>} answers alike whichever of them it takes.
   */
  static void check(List<ServiceDescriptor> services, List<ApiCall<?, ?>> table) {
    Map<String, MethodDescriptor<?, ?>> served = new HashMap<>();
    Map<String, MethodDescriptor<?, ?>> named = new HashMap<>();
    for (ServiceDescriptor service : services) {
      for (MethodDescriptor<?, ?> method : service.getMethods()) {
        served.put(method.getFullMethodName(), method);
        MethodDescriptor<?, ?> other = named.putIfAbsent(method.getBareMethodName(), method);
        if (other != null
            && !(SHARED.contains(method.getBareMethodName()) && sameMessages(other, method))) {
          throw new IllegalStateException(
              "two RPCs are named "
                  + method.getBareMethodName()
                  + ": "
                  + other.getFullMethodName()
                  + " and "
                  + method.getFullMethodName()
                  + " (POST /v1/<RpcName> needs one)");
        }
      }
    }
    Map<String, ApiCall<?, ?>> bound = new HashMap<>();
    Map<String, Permission> permissions = new HashMap<>();
    for (ApiCall<?, ?> call : table) {
      String name = call.method().getFullMethodName();
      if (served.get(name) != call.method()) {
        throw new IllegalStateException("RPC " + name + " is bound but its service is not served");
      }
      if (bound.put(name, call) != null) {
        throw new IllegalStateException("RPC " + name + " is bound twice");
      }
      Permission other =
          permissions.putIfAbsent(call.method().getBareMethodName(), call.permission());
      if (other != null && other != call.permission()) {
        throw new IllegalStateException(
            "RPC " + name + " needs another permission than the RPC of the same name");
      }
    }
    served.values().stream()
        .filter(method -> !bound.containsKey(method.getFullMethodName()))
        .findFirst()
        .ifPresent(
            method -> {
              throw new IllegalStateException(
                  "RPC "
                      + method.getFullMethodName()
                      + " has no handler and permission in ApiCalls");
            });
  }

  /** Whether two methods take and return the same messages. */
  private static boolean sameMessages(MethodDescriptor<?, ?> a, MethodDescriptor<?, ?> b) {
    return prototype(a.getRequestMarshaller()).equals(prototype(b.getRequestMarshaller()))
        && prototype(a.getResponseMarshaller()).equals(prototype(b.getResponseMarshaller()));
  }

  private static Object prototype(MethodDescriptor.Marshaller<?> marshaller) {
    return marshaller instanceof MethodDescriptor.PrototypeMarshaller<?> p
        ? p.getMessagePrototype().getClass()
        : marshaller;
  }

  /** The namespaces of a ListNamespaces answer that {@code visible} accepts. */
  private static ListNamespacesResponse keep(
      ListNamespacesResponse all, Predicate<String> visible) {
    return ListNamespacesResponse.newBuilder()
        .addAllNamespaces(
            all.getNamespacesList().stream().filter(n -> visible.test(n.getNamespace())).toList())
        .build();
  }
}
