package io.varve.server.controlplane;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import java.util.List;

/**
 * The stored form of a namespace configuration: the JSON of its effective persistence
 * configuration.
 */
final class NamespaceDocuments {

  private NamespaceDocuments() {}

  static String write(String namespace, List<PersistenceConfiguration> config) {
    try {
      return JsonFormat.printer()
          .omittingInsignificantWhitespace()
          .print(
              CreateNamespaceRequest.newBuilder()
                  .setNamespace(namespace)
                  .addAllPersistenceConfiguration(config));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<PersistenceConfiguration> read(String json) {
    try {
      CreateNamespaceRequest.Builder builder = CreateNamespaceRequest.newBuilder();
      JsonFormat.parser().ignoringUnknownFields().merge(json, builder);
      return builder.getPersistenceConfigurationList();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "stored namespace configuration unreadable: " + e.getMessage(), e);
    }
  }
}
