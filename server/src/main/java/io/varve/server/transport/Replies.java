package io.varve.server.transport;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** Completes a unary gRPC call from a handler's asynchronous result. */
final class Replies {

  private Replies() {}

  static <T> void reply(Supplier<CompletionStage<T>> call, StreamObserver<T> observer) {
    CompletionStage<T> stage;
    try {
      stage = call.get();
    } catch (RuntimeException e) {
      observer.onError(ErrorMapping.of(e).grpcStatus().asRuntimeException());
      return;
    }
    stage.whenComplete((value, error) -> {
      if (error != null) {
        observer.onError(ErrorMapping.of(error).grpcStatus().asRuntimeException());
      } else {
        observer.onNext(value);
        observer.onCompleted();
      }
    });
  }
}
