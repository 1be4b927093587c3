package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.Item;
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
}
