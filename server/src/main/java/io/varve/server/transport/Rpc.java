package io.varve.server.transport;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One RPC as both transports serve it: the generated gRPC method and the call that answers it,
 * permission check included ({@link ApiCall#bind}).
 */
record Rpc<Q extends Message, R extends Message>(
    MethodDescriptor<Q, R> method, Function<Q, CompletionStage<R>> call) {

  /** The name in {@code POST /v1/<name>}: the method's name in its proto service. */
  String name() {
    return method.getBareMethodName();
  }

  /** The empty request, whose type the JSON body is read into. */
  Q requestPrototype() {
    // protoc's gRPC plugin generates every method with protobuf marshallers, which carry it
    if (method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<Q> typed) {
      return typed.getMessagePrototype();
    }
    throw new IllegalStateException("not a protobuf method: " + method.getFullMethodName());
  }
}
