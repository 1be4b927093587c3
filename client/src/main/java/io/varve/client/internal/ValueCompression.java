package io.varve.client.internal;

import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutOperation;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import java.util.Map;

/**
 * Client-side zstd compression of KeyValue values (docs/key-value.md, "Compression signals"):
 * values of at least the threshold are sent as one zstd frame declaring its content size, with
 * {@code metadata.compression = "zstd"}, when that saves at least an eighth; values the server
 * sends compressed are decompressed before the caller sees them. Stateless, thread safe.
 */
public final class ValueCompression {

  /** The one compression the API knows. */
  public static final String ZSTD = "zstd";

  /** The signal of a read that takes values as stored: {@code "compression": {"zstd": true}}. */
  public static final Map<String, Struct> SIGNAL =
      Map.of(
          "compression",
          Struct.newBuilder()
              .putFields(ZSTD, Value.newBuilder().setBoolValue(true).build())
              .build());

  private static final int LEVEL = 3;

  private final int threshold;

  /** Compresses values of at least {@code threshold} bytes. */
  public ValueCompression(int threshold) {
    this.threshold = threshold;
  }

  /** {@code request} with the values of its items compressed where that pays. */
  public PutItemsRequest compress(PutItemsRequest request) {
    PutItemsRequest.Builder b = request.toBuilder();
    for (int i = 0; i < b.getItemsCount(); i++) {
      b.setItems(i, compress(b.getItems(i)));
    }
    return b.build();
  }

  /** {@code request} with the values of its put mutations compressed where that pays. */
  public MutateItemsRequest compress(MutateItemsRequest request) {
    MutateItemsRequest.Builder b = request.toBuilder();
    for (Mutation.Builder m : b.getMutationsBuilderList()) {
      if (m.hasPut()) {
        PutOperation.Builder put = m.getPutBuilder();
        for (int i = 0; i < put.getItemsCount(); i++) {
          put.setItems(i, compress(put.getItems(i)));
        }
      }
    }
    return b.build();
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

  /** {@code response} with every value as written. */
  public static GetItemsResponse decompress(GetItemsResponse response) {
    GetItemsResponse.Builder b = response.toBuilder();
    for (int i = 0; i < b.getItemsCount(); i++) {
      b.setItems(i, decompress(b.getItems(i)));
    }
    return b.build();
  }

  /** {@code response} with every value as written. */
  public static ScanItemsResponse decompress(ScanItemsResponse response) {
    ScanItemsResponse.Builder b = response.toBuilder();
    for (ScannedItem.Builder item : b.getItemsBuilderList()) {
      item.setItem(decompress(item.getItem()));
    }
    return b.build();
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
