package io.varve.server.transport;

import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.core.error.VarveException;
import io.varve.server.auth.ApiPermissions;
import io.varve.server.auth.TokenGrant;
import io.varve.server.controlplane.ControlPlaneHandler;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.dataplane.SearchHandler;
import io.varve.server.index.Backfill;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Every RPC of the API as a function of its request, behind the permission check of
 * {@link ApiPermissions}: the one table both transports (gRPC and HTTP/JSON) call, so both refuse
 * the same calls, with PERMISSION_DENIED, before any work. The caller is the token grant
 * {@link TokenAuthentication} put in the request context; with authentication off every call passes.
 */
final class ApiCalls {

  final Function<CreateNamespaceRequest, CompletionStage<Namespace>> createNamespace;
  final Function<GetNamespaceRequest, CompletionStage<Namespace>> getNamespace;
  final Function<ListNamespacesRequest, CompletionStage<ListNamespacesResponse>> listNamespaces;
  final Function<UpdateNamespaceRequest, CompletionStage<Namespace>> updateNamespace;
  final Function<BackfillIndexRequest, CompletionStage<BackfillIndexResponse>> backfillIndex;
  final Function<WriteEventRecordsRequest, CompletionStage<WriteEventRecordsResponse>> writeEventRecordsSync;
  final Function<ReadEventRecordsRequest, CompletionStage<ReadEventRecordsResponse>> readEventRecords;
  final Function<SearchEventRecordsRequest, CompletionStage<SearchEventRecordsResponse>> searchEventRecords;
  final Function<AggregateEventRecordsRequest, CompletionStage<AggregateEventRecordsResponse>> aggregateEventRecords;

  private final boolean enabled;

  ApiCalls(ControlPlaneHandler control, Backfill backfill, DataPlaneHandler data, SearchHandler search,
      boolean authenticated) {
    this.enabled = authenticated;
    createNamespace = guard("CreateNamespace", CreateNamespaceRequest::getNamespace, control::create);
    getNamespace = guard("GetNamespace", GetNamespaceRequest::getNamespace, control::get);
    updateNamespace = guard("UpdateNamespace", UpdateNamespaceRequest::getNamespace, control::update);
    backfillIndex = guard("BackfillIndex", BackfillIndexRequest::getNamespace, backfill::run);
    writeEventRecordsSync = guard("WriteEventRecordsSync", WriteEventRecordsRequest::getNamespace, data::writeSync);
    readEventRecords = guard("ReadEventRecords", ReadEventRecordsRequest::getNamespace, data::read);
    searchEventRecords = guard("SearchEventRecords", SearchEventRecordsRequest::getNamespace, search::search);
    aggregateEventRecords = guard("AggregateEventRecords", AggregateEventRecordsRequest::getNamespace,
        search::aggregate);
    listNamespaces = !enabled ? control::list : request -> {
      TokenGrant caller = caller();
      return control.list(request).thenApply(all -> ListNamespacesResponse.newBuilder()
          .addAllNamespaces(all.getNamespacesList().stream()
              .filter(n -> ApiPermissions.listed(caller, n.getNamespace())).toList())
          .build());
    };
  }

  private <Q, R> Function<Q, CompletionStage<R>> guard(String rpc, Function<Q, String> namespace,
      Function<Q, CompletionStage<R>> call) {
    if (!enabled) {
      return call;
    }
    return request -> {
      ApiPermissions.check(caller(), rpc, namespace.apply(request));
      return call.apply(request);
    };
  }

  private static TokenGrant caller() {
    // the authentication decorator always sets it; refusing here keeps a wiring mistake closed
    return TokenAuthentication.caller().orElseThrow(() -> new VarveException(VarveException.Kind.UNAUTHENTICATED,
        "no authenticated caller for this call"));
  }
}
