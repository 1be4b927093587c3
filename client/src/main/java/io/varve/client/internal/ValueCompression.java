package io.varve.client.internal;

import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;

/**
 * Client-side zstd compression of KeyValue values (docs/key-value.md, "Compression signals"):
 * values of at least the threshold are sent as one zstd frame declaring its content size, with
 * {@code metadata.compression = "zstd"}, when that saves at least an eighth; values the server
 * sends compressed are decompressed before the caller sees them. Stateless, thread safe.
 */
public final class ValueCompression {

  /** The one compression the API knows. */
  public static final String ZSTD = "zstd";

  private static final int LEVEL = 3;

  private final int threshold;

  /** Compresses values of at least {@code threshold} bytes. */
  public ValueCompression(int threshold) {
    this.threshold = threshold;
  }

  /** {@code item} with its value compressed, or as it is when small, incompressible or declared. */
  public Item compress(Item item) {
    int size = item.getValue().size();
    if (size < threshold || !item.getMetadata().getCompression().isEmpty()) {
      return item;
    }
    byte[] compressed = Zstd.compress(item.getValue().toByteArray(), LEVEL);
    if (compressed.length > size - size / 8) {
      return item;
    }
    return item.toBuilder()
        .setValue(ByteString.copyFrom(compressed))
        .setMetadata(item.getMetadata().toBuilder().setCompression(ZSTD))
        .build();
  }

  /** {@code item} with its value as written: decompressed when the server sent it compressed. */
  public static Item decompress(Item item) {
    ItemMetadata metadata = item.getMetadata();
    if (!ZSTD.equals(metadata.getCompression())) {
      return item;
    }
    byte[] frame = item.getValue().toByteArray();
    long size =
        metadata.getValueSize() > 0 ? metadata.getValueSize() : Zstd.getFrameContentSize(frame);
    byte[] value = Zstd.decompress(frame, Math.toIntExact(size));
    return item.toBuilder()
        .setValue(ByteString.copyFrom(value))
        .setMetadata(metadata.toBuilder().clearCompression())
        .build();
  }
}
