package example;

import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.client.CallSettings;
import io.varve.client.KeyValueClient;
import io.varve.client.Paging;
import io.varve.client.VarveClient;
import java.net.URI;
import java.util.List;

/**
 * Creates a KeyValue namespace, puts an item and reads it back: args are the server's URL and the
 * namespace.
 */
public final class Application {

  public static void main(String[] args) {
    try (VarveClient varve = VarveClient.builder().endpoint(URI.create(args[0])).build()) {
      String namespace = args[1];
      VarveClient.join(
          varve
              .controlPlane()
              .createNamespace(
                  CreateNamespaceRequest.newBuilder()
                      .setNamespace(namespace)
                      .setService("KEY_VALUE")
                      .addPersistenceConfiguration(
                          PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE"))
                      .build(),
                  CallSettings.defaults()));
      KeyValueClient kv = varve.keyValue();
      VarveClient.join(
          kv.putItems(
              PutItemsRequest.newBuilder()
                  .setNamespace(namespace)
                  .setId("profile-42")
                  .addItems(
                      Item.newBuilder()
                          .setKey(ByteString.copyFromUtf8("name"))
                          .setValue(ByteString.copyFromUtf8("from an application")))
                  .build()));
      List<Item> items =
          kv.getAll(
                  GetItemsRequest.newBuilder().setNamespace(namespace).setId("profile-42").build(),
                  Paging.COMPLETE_PAGES)
              .items()
              .toList();
      for (Item item : items) {
        System.out.println(item.getKey().toStringUtf8() + "=" + item.getValue().toStringUtf8());
      }
    }
  }
}
