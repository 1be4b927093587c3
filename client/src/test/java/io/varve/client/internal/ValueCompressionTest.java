package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ValueCompressionTest {

  final ValueCompression compression = new ValueCompression(1024);

  static Item item(byte[] value) {
    return Item.newBuilder()
        .setKey(ByteString.copyFromUtf8("k"))
        .setValue(ByteString.copyFrom(value))
        .build();
  }

  static byte[] text(int size) {
    return "the same words again and again; "
        .repeat(size / 32 + 1)
        .substring(0, size)
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void a_value_at_the_threshold_is_sent_as_one_zstd_frame_declaring_its_size() {
    byte[] value = text(1024);
    Item sent = compression.compress(item(value));
    assertThat(sent.getMetadata().getCompression()).isEqualTo("zstd");
    assertThat(sent.getValue().size()).isLessThan(value.length / 4);
    assertThat(Zstd.getFrameContentSize(sent.getValue().toByteArray())).isEqualTo(1024);
    Item back =
        ValueCompression.decompress(
            sent.toBuilder()
                .setMetadata(sent.getMetadata().toBuilder().setValueSize(1024))
                .build());
    assertThat(back.getValue().toByteArray()).isEqualTo(value);
    assertThat(back.getMetadata().getCompression()).isEmpty();
  }

  @Test
  void small_incompressible_and_already_declared_values_go_as_they_are() {
    Item small = item(text(1023));
    assertThat(compression.compress(small)).isSameAs(small);
    byte[] noise = new byte[4096];
    new Random(7).nextBytes(noise);
    Item random = item(noise);
    assertThat(compression.compress(random)).isSameAs(random);
    Item declared =
        item(text(4096)).toBuilder()
            .setMetadata(io.varve.api.kv.v1.ItemMetadata.newBuilder().setCompression("zstd"))
            .build();
    assertThat(compression.compress(declared)).isSameAs(declared);
    assertThat(ValueCompression.decompress(small)).isSameAs(small);
  }

  @Test
  void a_large_value_is_judged_by_its_start() {
    byte[] noise = new byte[ValueCompression.PROBE_BYTES];
    new Random(11).nextBytes(noise);
    byte[] rest = text(3 * ValueCompression.PROBE_BYTES);
    byte[] noisyStart = new byte[noise.length + rest.length];
    System.arraycopy(noise, 0, noisyStart, 0, noise.length);
    System.arraycopy(rest, 0, noisyStart, noise.length, rest.length);
    // three quarters would compress, but the start does not: sent as it is, no pass over the rest
    Item judged = item(noisyStart);
    assertThat(compression.compress(judged)).isSameAs(judged);
    byte[] large = text(1024 * 1024);
    Item sent = compression.compress(item(large));
    assertThat(sent.getMetadata().getCompression()).isEqualTo("zstd");
    assertThat(Zstd.decompress(sent.getValue().toByteArray(), large.length)).isEqualTo(large);
    byte[] random = new byte[1024 * 1024];
    new Random(13).nextBytes(random);
    Item incompressible = item(random);
    assertThat(compression.compress(incompressible)).isSameAs(incompressible);
  }

  @Test
  void requests_and_responses_without_a_value_to_change_are_not_copied() {
    byte[] noise = new byte[4096];
    new Random(17).nextBytes(noise);
    PutItemsRequest plain =
        PutItemsRequest.newBuilder()
            .setNamespace("n")
            .setId("r")
            .addItems(item(text(10)))
            .addItems(item(noise))
            .build();
    assertThat(compression.compress(plain)).isSameAs(plain);
    PutItemsRequest mixed = plain.toBuilder().addItems(item(text(4096))).build();
    PutItemsRequest sent = compression.compress(mixed);
    assertThat(sent.getItems(0)).isSameAs(mixed.getItems(0));
    assertThat(sent.getItems(1)).isSameAs(mixed.getItems(1));
    assertThat(sent.getItems(2).getMetadata().getCompression()).isEqualTo("zstd");

    GetItemsResponse page =
        GetItemsResponse.newBuilder().addItems(item(text(10))).addItems(item(noise)).build();
    assertThat(ValueCompression.decompress(page)).isSameAs(page);
    Item stored =
        sent.getItems(2).toBuilder()
            .setMetadata(sent.getItems(2).getMetadata().toBuilder().setValueSize(4096))
            .build();
    GetItemsResponse compressed = page.toBuilder().addItems(stored).build();
    GetItemsResponse back = ValueCompression.decompress(compressed);
    assertThat(back.getItems(0)).isSameAs(page.getItems(0));
    assertThat(back.getItems(2).getValue().toByteArray()).isEqualTo(text(4096));
    assertThat(back.getItems(2).getMetadata().getCompression()).isEmpty();

    ScanItemsResponse scan =
        ScanItemsResponse.newBuilder()
            .addItems(ScannedItem.newBuilder().setId("r").setItem(item(text(10))))
            .build();
    assertThat(ValueCompression.decompress(scan)).isSameAs(scan);
    ScanItemsResponse scanBack =
        ValueCompression.decompress(
            scan.toBuilder().addItems(ScannedItem.newBuilder().setId("r").setItem(stored)).build());
    assertThat(scanBack.getItems(1).getId()).isEqualTo("r");
    assertThat(scanBack.getItems(1).getItem().getValue().toByteArray()).isEqualTo(text(4096));
  }
}
