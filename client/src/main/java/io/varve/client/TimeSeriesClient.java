package io.varve.client;

import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsQueuedResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.client.internal.CallKind;
import io.varve.client.internal.Handshakes;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * The TimeSeries data plane ({@code varve.timeseries.v1.TimeSeries}) of a {@link VarveClient}.
 *
 * <p>Every call is bounded by its RPC's latency {@code max} from the namespace's handshake (else
 * the client's default deadline) and retried on UNAVAILABLE and RESOURCE_EXHAUSTED. Reads and
 * WriteEventRecordsSync are idempotent and hedged at the RPC's {@code target}: an event is
 * identified by (time series, time, event id), so a hedged or retried write leaves one copy. Events
 * without an {@code event_id} get a random UUID before the first request, so that retries and
 * hedges repeat the same one. The fire-and-forget WriteEventRecords is retried but never hedged:
 * its answer does not wait for storage. Times: see {@link Times}. Thread safe.
 */
public final class TimeSeriesClient {

  private final ClientCalls calls;

  TimeSeriesClient(ClientCalls calls) {
    this.calls = calls;
  }

  /** Writes events durably (WriteEventRecordsSync); idempotent and hedged. */
  public CompletionStage<WriteEventRecordsResponse> writeEventRecordsSync(
      WriteEventRecordsRequest request) {
    return writeEventRecordsSync(request, CallSettings.defaults());
  }

  /** As {@link #writeEventRecordsSync(WriteEventRecordsRequest)}, with this call's settings. */
  public CompletionStage<WriteEventRecordsResponse> writeEventRecordsSync(
      WriteEventRecordsRequest request, CallSettings settings) {
    return call(
        TimeSeriesGrpc.getWriteEventRecordsSyncMethod(),
        withEventIds(request),
        request.getNamespace(),
        CallKind.HEDGED,
        settings);
  }

  /** Queues events (fire-and-forget WriteEventRecords); retried, never hedged. */
  public CompletionStage<WriteEventRecordsQueuedResponse> writeEventRecords(
      WriteEventRecordsRequest request) {
    return writeEventRecords(request, CallSettings.defaults());
  }

  /** As {@link #writeEventRecords(WriteEventRecordsRequest)}, with this call's settings. */
  public CompletionStage<WriteEventRecordsQueuedResponse> writeEventRecords(
      WriteEventRecordsRequest request, CallSettings settings) {
    return call(
        TimeSeriesGrpc.getWriteEventRecordsMethod(),
        withEventIds(request),
        request.getNamespace(),
        CallKind.IDEMPOTENT,
        settings);
  }

  /** One page of a time series' events, newest first (ReadEventRecords); hedged. */
  public CompletionStage<ReadEventRecordsResponse> readEventRecords(
      ReadEventRecordsRequest request) {
    return readEventRecords(request, CallSettings.defaults());
  }

  /** As {@link #readEventRecords(ReadEventRecordsRequest)}, with this call's settings. */
  public CompletionStage<ReadEventRecordsResponse> readEventRecords(
      ReadEventRecordsRequest request, CallSettings settings) {
    return call(
        TimeSeriesGrpc.getReadEventRecordsMethod(),
        request,
        request.getNamespace(),
        CallKind.HEDGED,
        settings);
  }

  /** Every page of {@code request} from its first one, following the page tokens. */
  public Pages<Event> readAll(ReadEventRecordsRequest request, Paging paging) {
    return new Pages<>(
        token ->
            readEventRecords(request.toBuilder().setPageToken(token).build())
                .thenApply(
                    r -> new Page<>(r.getEventsList(), r.getNextPageToken(), Page.partial(r))),
        paging);
  }

  /** One page of the events matching a search query (SearchEventRecords); hedged. */
  public CompletionStage<SearchEventRecordsResponse> searchEventRecords(
      SearchEventRecordsRequest request) {
    return searchEventRecords(request, CallSettings.defaults());
  }

  /** As {@link #searchEventRecords(SearchEventRecordsRequest)}, with this call's settings. */
  public CompletionStage<SearchEventRecordsResponse> searchEventRecords(
      SearchEventRecordsRequest request, CallSettings settings) {
    return call(
        TimeSeriesGrpc.getSearchEventRecordsMethod(),
        request,
        request.getNamespace(),
        CallKind.HEDGED,
        settings);
  }

  /** Every page of a search from its first one, following the page tokens. */
  public Pages<Event> searchAll(SearchEventRecordsRequest request, Paging paging) {
    return new Pages<>(
        token ->
            searchEventRecords(request.toBuilder().setPageToken(token).build())
                .thenApply(
                    r -> new Page<>(r.getEventsList(), r.getNextPageToken(), Page.partial(r))),
        paging);
  }

  /** Aggregates of the events matching a search query (AggregateEventRecords); hedged. */
  public CompletionStage<AggregateEventRecordsResponse> aggregateEventRecords(
      AggregateEventRecordsRequest request, CallSettings settings) {
    return call(
        TimeSeriesGrpc.getAggregateEventRecordsMethod(),
        request,
        request.getNamespace(),
        CallKind.HEDGED,
        settings);
  }

  private <Q, R> CompletionStage<R> call(
      io.grpc.MethodDescriptor<Q, R> method,
      Q request,
      String namespace,
      CallKind kind,
      CallSettings settings) {
    return calls.call(method, request, namespace, Handshakes.Service.TIME_SERIES, kind, settings);
  }

  /** {@code request} with a random UUID as the id of each event that has none. */
  static WriteEventRecordsRequest withEventIds(WriteEventRecordsRequest request) {
    boolean missing = false;
    for (Event e : request.getEventsList()) {
      missing |= e.getEventId().isEmpty();
    }
    if (!missing) {
      return request;
    }
    WriteEventRecordsRequest.Builder filled = request.toBuilder();
    for (Event.Builder e : filled.getEventsBuilderList()) {
      if (e.getEventId().isEmpty()) {
        e.setEventId(UUID.randomUUID().toString());
      }
    }
    return filled.build();
  }
}
