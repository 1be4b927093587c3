package io.varve.server.transport;

import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;

/** gRPC binding of the data plane. */
final class TimeSeriesGrpcService extends TimeSeriesGrpc.TimeSeriesImplBase {

  private final ApiCalls calls;

  TimeSeriesGrpcService(ApiCalls calls) {
    this.calls = calls;
  }

  @Override
  public void searchEventRecords(SearchEventRecordsRequest request,
      StreamObserver<SearchEventRecordsResponse> observer) {
    Replies.reply(() -> calls.searchEventRecords.apply(request), observer);
  }

  @Override
  public void aggregateEventRecords(AggregateEventRecordsRequest request,
      StreamObserver<AggregateEventRecordsResponse> observer) {
    Replies.reply(() -> calls.aggregateEventRecords.apply(request), observer);
  }

  @Override
  public void writeEventRecordsSync(WriteEventRecordsRequest request,
      StreamObserver<WriteEventRecordsResponse> observer) {
    Replies.reply(() -> calls.writeEventRecordsSync.apply(request), observer);
  }

  @Override
  public void readEventRecords(ReadEventRecordsRequest request, StreamObserver<ReadEventRecordsResponse> observer) {
    Replies.reply(() -> calls.readEventRecords.apply(request), observer);
  }
}
