package io.varve.server.transport;

import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;

/** gRPC binding of the control plane. */
final class ControlPlaneGrpcService extends ControlPlaneGrpc.ControlPlaneImplBase {

  private final ApiCalls calls;

  ControlPlaneGrpcService(ApiCalls calls) {
    this.calls = calls;
  }

  @Override
  public void backfillIndex(BackfillIndexRequest request, StreamObserver<BackfillIndexResponse> observer) {
    Replies.reply(() -> calls.backfillIndex.apply(request), observer);
  }

  @Override
  public void createNamespace(CreateNamespaceRequest request, StreamObserver<Namespace> observer) {
    Replies.reply(() -> calls.createNamespace.apply(request), observer);
  }

  @Override
  public void getNamespace(GetNamespaceRequest request, StreamObserver<Namespace> observer) {
    Replies.reply(() -> calls.getNamespace.apply(request), observer);
  }

  @Override
  public void listNamespaces(ListNamespacesRequest request, StreamObserver<ListNamespacesResponse> observer) {
    Replies.reply(() -> calls.listNamespaces.apply(request), observer);
  }

  @Override
  public void updateNamespace(UpdateNamespaceRequest request, StreamObserver<Namespace> observer) {
    Replies.reply(() -> calls.updateNamespace.apply(request), observer);
  }
}
