package io.varve.server.transport;

import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.server.index.Backfill;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.server.controlplane.ControlPlaneHandler;

/** gRPC binding of the control plane. */
final class ControlPlaneGrpcService extends ControlPlaneGrpc.ControlPlaneImplBase {

  private final ControlPlaneHandler handler;
  private final Backfill backfill;

  ControlPlaneGrpcService(ControlPlaneHandler handler, Backfill backfill) {
    this.handler = handler;
    this.backfill = backfill;
  }

  @Override
  public void backfillIndex(BackfillIndexRequest request, StreamObserver<BackfillIndexResponse> observer) {
    Replies.reply(() -> backfill.run(request), observer);
  }

  @Override
  public void createNamespace(CreateNamespaceRequest request, StreamObserver<Namespace> observer) {
    Replies.reply(() -> handler.create(request), observer);
  }

  @Override
  public void getNamespace(GetNamespaceRequest request, StreamObserver<Namespace> observer) {
    Replies.reply(() -> handler.get(request), observer);
  }

  @Override
  public void listNamespaces(ListNamespacesRequest request, StreamObserver<ListNamespacesResponse> observer) {
    Replies.reply(() -> handler.list(request), observer);
  }

  @Override
  public void updateNamespace(UpdateNamespaceRequest request, StreamObserver<Namespace> observer) {
    Replies.reply(() -> handler.update(request), observer);
  }
}
