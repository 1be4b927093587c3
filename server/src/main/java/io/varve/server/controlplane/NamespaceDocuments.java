package io.varve.server.controlplane;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.server.config.NamespaceService;
import java.util.List;

/**
 * The stored form of a namespace configuration: the JSON of its effective persistence
 * configuration.
 */
final class NamespaceDocuments {

  private NamespaceDocuments() {}

  /** The stored JSON; a TimeSeries document has no {@code service}, as before KeyValue existed. */
  static String write(
      String namespace, NamespaceService service, List<PersistenceConfiguration> config) {
    try {
      CreateNamespaceRequest.Builder document =
          CreateNamespaceRequest.newBuilder()
              .setNamespace(namespace)
              .addAllPersistenceConfiguration(config);
      if (service == NamespaceService.KEY_VALUE) {
        document.setService(service.name());
      }
      return JsonFormat.printer().omittingInsignificantWhitespace().print(document);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  static CreateNamespaceRequest read(String json) {
    try {
      CreateNamespaceRequest.Builder builder = CreateNamespaceRequest.newBuilder();
      JsonFormat.parser().ignoringUnknownFields().merge(json, builder);
      return builder.build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(
          "stored namespace configuration unreadable: " + e.getMessage(), e);
    }
  }
}
