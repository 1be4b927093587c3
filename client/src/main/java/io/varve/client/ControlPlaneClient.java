package io.varve.client;

import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.api.timeseries.v1.CancelSliceRepartitionRequest;
import io.varve.api.timeseries.v1.CommitSliceRepartitionRequest;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.DeleteNamespaceRequest;
import io.varve.api.timeseries.v1.DeleteNamespaceResponse;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.ListTimeSlicesRequest;
import io.varve.api.timeseries.v1.ListTimeSlicesResponse;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.PrepareSliceRepartitionRequest;
import io.varve.api.timeseries.v1.SliceRepartition;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.client.internal.CallKind;
import io.varve.client.internal.Caller;
import java.util.concurrent.CompletionStage;

/**
 * The control plane ({@code varve.timeseries.v1.ControlPlane}) of a {@link VarveClient}: namespaces
 * of both services, their time slices and deletion, and index backfills.
 *
 * <p>Control-plane calls have no latency objectives: they are bounded by the client's default
 * deadline unless the call's settings say otherwise, and never hedged. Reads (GetNamespace,
 * ListNamespaces) and BackfillIndex, which is idempotent, are retried on UNAVAILABLE and
 * RESOURCE_EXHAUSTED; CreateNamespace, UpdateNamespace and DeleteNamespace only when refused at
 * admission (RESOURCE_EXHAUSTED), since an UNAVAILABLE answer may come after they were applied.
 * Thread safe.
 */
public final class ControlPlaneClient {

  private final Caller caller;

  ControlPlaneClient(Caller caller) {
    this.caller = caller;
  }

  /** Creates a namespace; not retried after UNAVAILABLE (it may have been created). */
  public CompletionStage<Namespace> createNamespace(
      CreateNamespaceRequest request, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getCreateNamespaceMethod(), request, CallKind.NOT_IDEMPOTENT, settings);
  }

  /** A namespace with its configuration and time slices. */
  public CompletionStage<Namespace> getNamespace(String namespace, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getGetNamespaceMethod(),
        GetNamespaceRequest.newBuilder().setNamespace(namespace).build(),
        CallKind.IDEMPOTENT,
        settings);
  }

  /** Every namespace the client's token may read. */
  public CompletionStage<ListNamespacesResponse> listNamespaces(CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getListNamespacesMethod(),
        ListNamespacesRequest.getDefaultInstance(),
        CallKind.IDEMPOTENT,
        settings);
  }

  /** Replaces a namespace's configuration; not retried after UNAVAILABLE. */
  public CompletionStage<Namespace> updateNamespace(
      UpdateNamespaceRequest request, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getUpdateNamespaceMethod(), request, CallKind.NOT_IDEMPOTENT, settings);
  }

  /**
   * Indexes again a namespace's events of an interval; answers when done, so callers usually pass
   * {@link CallSettings#withoutDeadline()}.
   */
  public CompletionStage<BackfillIndexResponse> backfillIndex(
      BackfillIndexRequest request, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getBackfillIndexMethod(), request, CallKind.IDEMPOTENT, settings);
  }

  /** Every time slice of a TimeSeries namespace, newest first, with its status and compaction. */
  public CompletionStage<ListTimeSlicesResponse> listTimeSlices(
      String namespace, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getListTimeSlicesMethod(),
        ListTimeSlicesRequest.newBuilder().setNamespace(namespace).build(),
        CallKind.IDEMPOTENT,
        settings);
  }

  /**
   * Deletes a namespace of either service, its tables and index slices; {@code confirmNamespace}
   * must equal {@code namespace}. Not retried after UNAVAILABLE: a retry of a deletion that
   * finished answers NOT_FOUND. The server answers within 30 s, with {@code done: false} when the
   * deletion goes on in the background.
   */
  public CompletionStage<DeleteNamespaceResponse> deleteNamespace(
      String namespace, String confirmNamespace, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getDeleteNamespaceMethod(),
        DeleteNamespaceRequest.newBuilder()
            .setNamespace(namespace)
            .setConfirmNamespace(confirmNamespace)
            .build(),
        CallKind.NOT_IDEMPOTENT,
        settings);
  }

  /**
   * Prepares (or finds again) the pending table of a slice's re-partitioning; idempotent: the same
   * settings answer the same table.
   */
  public CompletionStage<SliceRepartition> prepareSliceRepartition(
      PrepareSliceRepartitionRequest request, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getPrepareSliceRepartitionMethod(),
        request,
        CallKind.IDEMPOTENT,
        settings);
  }

  /**
   * Moves a slice to its pending table; idempotent: committed again, it answers the committed
   * state.
   */
  public CompletionStage<SliceRepartition> commitSliceRepartition(
      CommitSliceRepartitionRequest request, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getCommitSliceRepartitionMethod(), request, CallKind.IDEMPOTENT, settings);
  }

  /** Drops a slice's pending table, if it has one. */
  public CompletionStage<SliceRepartition> cancelSliceRepartition(
      CancelSliceRepartitionRequest request, CallSettings settings) {
    return caller.call(
        ControlPlaneGrpc.getCancelSliceRepartitionMethod(), request, CallKind.IDEMPOTENT, settings);
  }
}
