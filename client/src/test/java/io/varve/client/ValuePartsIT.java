package io.varve.client;

import static io.varve.client.VarveClient.join;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.Selection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values the server returns in parts, read whole through the client, on a real server and
 * Cassandra: callers see whole values, never parts.
 */
class ValuePartsIT {

  static final String KV = "client_parts_kv";
  static final int MIB = 1024 * 1024;
  static TestVarve varve;
  static VarveClient client;

  @BeforeAll
  static void start() {
    // the default server: values up to 64 MiB, in chunks of 1 MiB
    varve = new TestVarve("varve_client_parts_it", "client_parts_kv_data");
    client = VarveClient.builder().endpoints(varve.endpoint()).build();
    join(
        client
            .controlPlane()
            .createNamespace(
                TestVarve.keyValueNamespace(
                    KV,
                    "client_parts_kv_data",
                    "items",
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(60)),
                CallSettings.defaults().withDeadline(Duration.ofSeconds(60))));
  }

  @AfterAll
  static void stop() {
    client.close();
    varve.close();
  }

  @Test
  void a_64_mib_value_and_its_neighbours_are_read_whole_by_the_client() {
    byte[] large = new byte[64 * MIB];
    new Random(64).nextBytes(large);
    CallSettings slow = CallSettings.defaults().withDeadline(Duration.ofMinutes(2));
    join(client.keyValue().putItems(put("a", "small a".getBytes()), slow));
    join(client.keyValue().putItems(put("b", large), slow));
    join(client.keyValue().putItems(put("c", "small c".getBytes()), slow));

    List<Item> items = new ArrayList<>();
    String token = "";
    do {
      GetItemsResponse page =
          join(
              client
                  .keyValue()
                  .getItems(
                      GetItemsRequest.newBuilder()
                          .setNamespace(KV)
                          .setId("record")
                          .setSelection(Selection.newBuilder().setPageSizeBytes(16 * MIB))
                          .setPageToken(token)
                          .build(),
                      slow));
      items.addAll(page.getItemsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());

    assertThat(items).extracting(i -> i.getKey().toStringUtf8()).containsExactly("a", "b", "c");
    assertThat(items).allSatisfy(i -> assertThat(i.hasChunk()).isFalse());
    assertThat(items).allSatisfy(i -> assertThat(i.hasChunked()).isFalse());
    assertThat(Arrays.equals(items.get(1).getValue().toByteArray(), large)).isTrue();
    assertThat(items.get(1).getMetadata().getValueSize()).isEqualTo(large.length);
  }

  private static PutItemsRequest put(String key, byte[] value) {
    return PutItemsRequest.newBuilder()
        .setNamespace(KV)
        .setId("record")
        .addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setValue(UnsafeByteOperations.unsafeWrap(value)))
        .build();
  }
}
