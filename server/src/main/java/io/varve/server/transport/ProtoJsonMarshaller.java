package io.varve.server.transport;

import com.google.protobuf.Message;
import com.linecorp.armeria.common.grpc.GrpcJsonMarshaller;
import io.grpc.MethodDescriptor;
import io.varve.server.json.ProtoJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The JSON form of gRPC messages sent to the gRPC paths (unframed JSON, as the {@code /docs/} page
 * posts it, and {@code application/grpc+json}): the codec of {@code POST /v1/<Rpc>}, so a body is
 * read with the same rules and limits and refused with the same field-naming error, whichever path
 * it was posted to.
 *
 * <p>A body that does not parse raises {@link io.varve.core.error.InvalidFieldException}; {@link
 * io.varve.server.error.ErrorMapping#grpcLayerFailure} turns it into INVALID_ARGUMENT.
 */
final class ProtoJsonMarshaller implements GrpcJsonMarshaller {

  private final ProtoJson codec;

  ProtoJsonMarshaller(ProtoJson codec) {
    this.codec = codec;
  }

  @Override
  public <T> void serializeMessage(
      MethodDescriptor.Marshaller<T> marshaller, T message, OutputStream out) throws IOException {
    codec.printTo((Message) message, out);
  }

  @Override
  public <T> T deserializeMessage(MethodDescriptor.Marshaller<T> marshaller, InputStream in)
      throws IOException {
    // every method of the API is generated with protobuf marshallers, which carry their prototype
    if (!(marshaller instanceof MethodDescriptor.PrototypeMarshaller<T> typed)
        || !(typed.getMessagePrototype() instanceof Message prototype)) {
      throw new IllegalStateException("not a protobuf message marshaller: " + marshaller);
    }
    String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    @SuppressWarnings("unchecked")
    T message = (T) codec.read(json, prototype);
    return message;
  }
}
