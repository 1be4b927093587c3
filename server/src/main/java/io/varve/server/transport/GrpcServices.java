package io.varve.server.transport;

import com.google.protobuf.Message;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.varve.server.error.ErrorMapping;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The gRPC binding of the API: each service of {@link Transports#SERVICES}, its methods answered by
 * the RPCs of {@link ApiCalls}. Built on the generated service descriptors, which carry the proto
 * schema (the {@code /docs/} page reads it).
 */
final class GrpcServices {

  private GrpcServices() {}

  /**
   * The services with their methods bound to {@code rpcs}.
   *
   * @throws IllegalStateException for a method of a service without an RPC (gRPC's own check)
   */
  static List<ServerServiceDefinition> of(List<ServiceDescriptor> services, List<Rpc<?, ?>> rpcs) {
    return services.stream()
        .map(
            service -> {
              ServerServiceDefinition.Builder definition = ServerServiceDefinition.builder(service);
              rpcs.stream()
                  .filter(rpc -> rpc.method().getServiceName().equals(service.getName()))
                  .forEach(rpc -> add(definition, rpc));
              return definition.build();
            })
        .toList();
  }

  private static <Q extends Message, R extends Message> void add(
      ServerServiceDefinition.Builder definition, Rpc<Q, R> rpc) {
    definition.addMethod(
        rpc.method(),
        ServerCalls.asyncUnaryCall((request, observer) -> reply(rpc, request, observer)));
  }

  /**
   * Completes a unary call from the RPC's asynchronous result; a failure becomes its status ({@link
   * ErrorMapping}).
   */
  private static <Q extends Message, R extends Message> void reply(
      Rpc<Q, R> rpc, Q request, StreamObserver<R> observer) {
    CompletionStage<R> stage;
    try {
      stage = rpc.call().apply(request);
    } catch (RuntimeException e) {
      observer.onError(ErrorMapping.of(e).grpcStatus().asRuntimeException());
      return;
    }
    stage.whenComplete(
        (value, error) -> {
          if (error != null) {
            observer.onError(ErrorMapping.of(error).grpcStatus().asRuntimeException());
          } else {
            observer.onNext(value);
            observer.onCompleted();
          }
        });
  }
}
