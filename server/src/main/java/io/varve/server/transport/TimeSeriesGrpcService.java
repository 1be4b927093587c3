package io.varve.server.transport;

import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.dataplane.SearchHandler;

/** gRPC binding of the data plane. */
final class TimeSeriesGrpcService extends TimeSeriesGrpc.TimeSeriesImplBase {

  private final DataPlaneHandler handler;
  private final SearchHandler search;

  TimeSeriesGrpcService(DataPlaneHandler handler, SearchHandler search) {
    this.handler = handler;
    this.search = search;
  }

  @Override
  public void searchEventRecords(SearchEventRecordsRequest request,
      StreamObserver<SearchEventRecordsResponse> observer) {
    Replies.reply(() -> search.search(request), observer);
  }

  @Override
  public void aggregateEventRecords(AggregateEventRecordsRequest request,
      StreamObserver<AggregateEventRecordsResponse> observer) {
    Replies.reply(() -> search.aggregate(request), observer);
  }

  @Override
  public void writeEventRecordsSync(WriteEventRecordsRequest request,
      StreamObserver<WriteEventRecordsResponse> observer) {
    Replies.reply(() -> handler.writeSync(request), observer);
  }

  @Override
  public void readEventRecords(ReadEventRecordsRequest request, StreamObserver<ReadEventRecordsResponse> observer) {
    Replies.reply(() -> handler.read(request), observer);
  }
}
