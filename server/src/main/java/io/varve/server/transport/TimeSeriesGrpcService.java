package io.varve.server.transport;

import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.server.dataplane.DataPlaneHandler;

/** gRPC binding of the data plane. */
final class TimeSeriesGrpcService extends TimeSeriesGrpc.TimeSeriesImplBase {

  private final DataPlaneHandler handler;

  TimeSeriesGrpcService(DataPlaneHandler handler) {
    this.handler = handler;
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
