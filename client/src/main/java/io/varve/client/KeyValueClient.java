package io.varve.client;

import io.grpc.MethodDescriptor;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.DeleteItemsResponse;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.MutateItemsResponse;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import io.varve.client.internal.CallKind;
import io.varve.client.internal.Handshakes;
import io.varve.client.internal.NamespaceSignals;
import io.varve.client.internal.PartedReads;
import io.varve.client.internal.PartedWrites;
import io.varve.client.internal.ValueCompression;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The KeyValue data plane ({@code varve.kv.v1.KeyValue}) of a {@link VarveClient}.
 *
 * <p>Every call is idempotent, so every call is hedged at its RPC's latency {@code target} from the
 * namespace's handshake, bounded by its {@code max}, and retried on UNAVAILABLE and
 * RESOURCE_EXHAUSTED. A mutation (PutItems, DeleteItems, MutateItems) without an idempotency token
 * gets one from the client's {@link IdempotencyTokens} before its first request, so its hedges and
 * retries carry the same one and are applied once, in the order of their generation times.
 *
 * <p>Compression: when the namespace's handshake says {@code compressed_values}, values of at least
 * the client's compression threshold are sent zstd-compressed (when that saves an eighth), reads
 * signal that they take compressed values, and values that come compressed are decompressed before
 * they are returned: callers always see values as written, {@code metadata.compression} empty.
 *
 * <p>Large values: GetItems signals that it takes values in parts ({@link PartedReads}) and
 * messages of any size; a value in parts is read to its end and returned whole, never as parts.
 * ScanItems signals messages of any size, so a scan returns every value whole. Thread safe.
 */
public final class KeyValueClient {

  private final ClientCalls calls;
  private final IdempotencyTokens tokens;
  private final ValueCompression compression;

  KeyValueClient(ClientCalls calls, IdempotencyTokens tokens, ValueCompression compression) {
    this.calls = calls;
    this.tokens = tokens;
    this.compression = compression;
  }

  /** Upserts items of one record (PutItems). */
  public CompletionStage<PutItemsResponse> putItems(PutItemsRequest request) {
    return putItems(request, CallSettings.defaults());
  }

  /** As {@link #putItems(PutItemsRequest)}, with this call's settings. */
  public CompletionStage<PutItemsResponse> putItems(
      PutItemsRequest request, CallSettings settings) {
    PutItemsRequest tokened =
        request.hasIdempotencyToken()
            ? request
            : request.toBuilder().setIdempotencyToken(tokens.next()).build();
    if (!PartedWrites.mayPart(tokened)) {
      return call(
          KeyValueGrpc.getPutItemsMethod(),
          request.getNamespace(),
          s -> s.compressedValues() ? compression.compress(tokened) : tokened,
          settings);
    }
    return calls
        .handshakes()
        .of(request.getNamespace(), Handshakes.Service.KEY_VALUE)
        .thenCompose(
            signals -> {
              PutItemsRequest sent =
                  signals.compressedValues() ? compression.compress(tokened) : tokened;
              List<PutItemsRequest> plan =
                  signals.maxChunkBytes().map(b -> PartedWrites.plan(sent, b)).orElse(List.of());
              if (plan.isEmpty()) {
                return call(
                    KeyValueGrpc.getPutItemsMethod(), request.getNamespace(), s -> sent, settings);
              }
              return inParts(plan, settings);
            });
  }

  /**
   * Sends the staging requests of a plan, {@link PartedWrites#IN_FLIGHT} at a time, then its last
   * request, which commits: the answer counts every part staged.
   */
  private CompletionStage<PutItemsResponse> inParts(
      List<PutItemsRequest> plan, CallSettings settings) {
    List<PutItemsRequest> staging = plan.subList(0, plan.size() - 1);
    PutItemsRequest last = plan.get(plan.size() - 1);
    AtomicInteger next = new AtomicInteger();
    AtomicInteger parts = new AtomicInteger();
    List<CompletableFuture<Void>> lanes = new ArrayList<>();
    for (int lane = 0; lane < Math.min(PartedWrites.IN_FLIGHT, staging.size()); lane++) {
      lanes.add(lane(staging, next, parts, settings).toCompletableFuture());
    }
    return CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new))
        .thenCompose(
            v -> call(KeyValueGrpc.getPutItemsMethod(), last.getNamespace(), s -> last, settings))
        .thenApply(r -> r.toBuilder().setChunkCount(r.getChunkCount() + parts.get()).build());
  }

  /** Sends staging requests one after the other, taking the next unsent one each time. */
  private CompletionStage<Void> lane(
      List<PutItemsRequest> staging,
      AtomicInteger next,
      AtomicInteger parts,
      CallSettings settings) {
    int i = next.getAndIncrement();
    if (i >= staging.size()) {
      return CompletableFuture.completedFuture(null);
    }
    PutItemsRequest r = staging.get(i);
    return call(KeyValueGrpc.getPutItemsMethod(), r.getNamespace(), s -> r, settings)
        .thenCompose(
            response -> {
              parts.addAndGet(response.getChunkCount());
              return lane(staging, next, parts, settings);
            });
  }

  /** One page of a record's items (GetItems), values as written. */
  public CompletionStage<GetItemsResponse> getItems(GetItemsRequest request) {
    return getItems(request, CallSettings.defaults());
  }

  /**
   * As {@link #getItems(GetItemsRequest)}, with this call's settings. A value the server returns in
   * parts (a value larger than {@link PartedReads#PART_BYTES}) is read to its last part and
   * returned whole, its CRC32C checked; the page's token is then the last part's.
   */
  public CompletionStage<GetItemsResponse> getItems(
      GetItemsRequest request, CallSettings settings) {
    GetItemsRequest.Builder signalled = request.toBuilder();
    PartedReads.SIGNALS.forEach(
        (name, signal) -> {
          if (!request.containsSignals(name)) {
            signalled.putSignals(name, signal);
          }
        });
    GetItemsRequest first = signalled.build();
    // each part's request built from the immutable first one: the lanes of a value read side by
    // side ask for their parts at once, from several threads
    return page(first, settings)
        .thenCompose(
            page ->
                PartedReads.whole(
                    page, token -> page(first.toBuilder().setPageToken(token).build(), settings)))
        .thenApply(ValueCompression::decompress);
  }

  /** One page of GetItems as the server returns it: values possibly compressed or in parts. */
  private CompletionStage<GetItemsResponse> page(GetItemsRequest request, CallSettings settings) {
    return call(
        KeyValueGrpc.getGetItemsMethod(),
        request.getNamespace(),
        s ->
            s.compressedValues()
                ? request.toBuilder().putAllSignals(ValueCompression.SIGNAL).build()
                : request,
        settings);
  }

  /** Every page of {@code request} from its first one, following the page tokens. */
  public Pages<Item> getAll(GetItemsRequest request, Paging paging) {
    return new Pages<>(
        token ->
            getItems(request.toBuilder().setPageToken(token).build())
                .thenApply(r -> new Page<>(r.getItemsList(), r.getNextPageToken(), r.getPartial())),
        paging);
  }

  /** Deletes items of one record (DeleteItems). */
  public CompletionStage<DeleteItemsResponse> deleteItems(DeleteItemsRequest request) {
    return deleteItems(request, CallSettings.defaults());
  }

  /** As {@link #deleteItems(DeleteItemsRequest)}, with this call's settings. */
  public CompletionStage<DeleteItemsResponse> deleteItems(
      DeleteItemsRequest request, CallSettings settings) {
    DeleteItemsRequest tokened =
        request.hasIdempotencyToken()
            ? request
            : request.toBuilder().setIdempotencyToken(tokens.next()).build();
    return call(
        KeyValueGrpc.getDeleteItemsMethod(), request.getNamespace(), s -> tokened, settings);
  }

  /** Puts and deletes over several records under one token (MutateItems). */
  public CompletionStage<MutateItemsResponse> mutateItems(MutateItemsRequest request) {
    return mutateItems(request, CallSettings.defaults());
  }

  /** As {@link #mutateItems(MutateItemsRequest)}, with this call's settings. */
  public CompletionStage<MutateItemsResponse> mutateItems(
      MutateItemsRequest request, CallSettings settings) {
    MutateItemsRequest tokened =
        request.hasIdempotencyToken()
            ? request
            : request.toBuilder().setIdempotencyToken(tokens.next()).build();
    return call(
        KeyValueGrpc.getMutateItemsMethod(),
        request.getNamespace(),
        s -> s.compressedValues() ? compression.compress(tokened) : tokened,
        settings);
  }

  /** One page of a segment of a namespace's items (ScanItems), values as written. */
  public CompletionStage<ScanItemsResponse> scanItems(ScanItemsRequest request) {
    return scanItems(request, CallSettings.defaults());
  }

  /** As {@link #scanItems(ScanItemsRequest)}, with this call's settings. */
  public CompletionStage<ScanItemsResponse> scanItems(
      ScanItemsRequest request, CallSettings settings) {
    ScanItemsRequest.Builder signalled = request.toBuilder();
    PartedReads.SCAN_SIGNALS.forEach(
        (name, signal) -> {
          if (!request.containsSignals(name)) {
            signalled.putSignals(name, signal);
          }
        });
    ScanItemsRequest sent = signalled.build();
    return call(
            KeyValueGrpc.getScanItemsMethod(),
            request.getNamespace(),
            s ->
                s.compressedValues()
                    ? sent.toBuilder().putAllSignals(ValueCompression.SIGNAL).build()
                    : sent,
            settings)
        .thenApply(ValueCompression::decompress);
  }

  /** Every page of a scan's segment from its first one, following the page tokens. */
  public Pages<ScannedItem> scanAll(ScanItemsRequest request, Paging paging) {
    return new Pages<>(
        token ->
            scanItems(request.toBuilder().setPageToken(token).build())
                .thenApply(
                    r -> new Page<>(r.getItemsList(), r.getNextPageToken(), Page.partial(r))),
        paging);
  }

  /**
   * A handshake of {@code namespace} made now: its objectives, limits and the server's
   * capabilities. The client makes its own in the background; this is for callers who want to see
   * them.
   */
  public CompletionStage<HandshakeResponse> handshake(String namespace) {
    return calls.handshakes().ask(namespace, Handshakes.Service.KEY_VALUE);
  }

  /** Calls {@code method} with the request {@code shape} makes for the namespace's signals. */
  private <Q, R> CompletionStage<R> call(
      MethodDescriptor<Q, R> method,
      String namespace,
      Function<NamespaceSignals, Q> shape,
      CallSettings settings) {
    return calls.call(
        method, namespace, Handshakes.Service.KEY_VALUE, shape, CallKind.HEDGED, settings);
  }
}
