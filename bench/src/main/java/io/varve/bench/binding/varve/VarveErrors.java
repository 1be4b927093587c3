package io.varve.bench.binding.varve;

import io.grpc.StatusRuntimeException;
import site.ycsb.Status;

/** gRPC failures as YCSB statuses named by their gRPC code (UNAVAILABLE, DEADLINE_EXCEEDED...). */
final class VarveErrors {
  private VarveErrors() {}

  static Status status(StatusRuntimeException e) {
    return new Status(
        e.getStatus().getCode().name(), String.valueOf(e.getStatus().getDescription()));
  }
}
