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
 * sends compressed are decompressed before the caller sees them. A value larger than {@value
 * #PROBE_BYTES} bytes is judged by its first {@value #PROBE_BYTES} first, as the server judges the
 * values it stores: when they do not compress by an eighth the value goes as it is, without a zstd
 * pass over all of it (an image, an archive or ciphertext of 16 MiB costs a compression of 64 KiB,
 * not of 16 MiB). Requests and responses in which no value changes are returned as they are, not
 * copied. Stateless, thread safe.
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

  /** The bytes of a large value's start compressed to judge it. */
  static final int PROBE_BYTES = 64 * 1024;

  private final int threshold;

  /** Compresses values of at least {@code threshold} bytes. */
  public ValueCompression(int threshold) {
    this.threshold = threshold;
  }

  /** {@code request} with the values of its items compressed where that pays. */
  public PutItemsRequest compress(PutItemsRequest request) {
    PutItemsRequest.Builder b = null;
    for (int i = 0; i < request.getItemsCount(); i++) {
      Item item = request.getItems(i);
      Item sent = compress(item);
      if (sent != item) {
        if (b == null) {
          b = request.toBuilder();
        }
        b.setItems(i, sent);
      }
    }
    return b == null ? request : b.build();
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
    // the probe copies the value's start only: an incompressible value is never copied whole
    if (size > PROBE_BYTES
        && !compresses(item.getValue().substring(0, PROBE_BYTES).toByteArray())) {
      return item;
    }
    byte[] compressed = Zstd.compress(item.getValue().toByteArray(), LEVEL);
    if (!saves(compressed.length, size)) {
      return item;
    }
    return item.toBuilder()
        .setValue(ByteString.copyFrom(compressed))
        .setMetadata(item.getMetadata().toBuilder().setCompression(ZSTD))
        .build();
  }

  /** Whether {@code start}, a value's first bytes, compresses by an eighth. */
  private static boolean compresses(byte[] start) {
    byte[] out = new byte[(int) Zstd.compressBound(start.length)];
    long size = Zstd.compressByteArray(out, 0, out.length, start, 0, start.length, LEVEL);
    return !Zstd.isError(size) && saves(size, start.length);
  }

  private static boolean saves(long compressed, long plain) {
    return compressed <= plain - plain / 8;
  }

  /** {@code response} with every value as written; itself when no value came compressed. */
  public static GetItemsResponse decompress(GetItemsResponse response) {
    GetItemsResponse.Builder b = null;
    for (int i = 0; i < response.getItemsCount(); i++) {
      Item item = response.getItems(i);
      Item plain = decompress(item);
      if (plain != item) {
        if (b == null) {
          b = response.toBuilder();
        }
        b.setItems(i, plain);
      }
    }
    return b == null ? response : b.build();
  }

  /** {@code response} with every value as written; itself when no value came compressed. */
  public static ScanItemsResponse decompress(ScanItemsResponse response) {
    ScanItemsResponse.Builder b = null;
    for (int i = 0; i < response.getItemsCount(); i++) {
      ScannedItem scanned = response.getItems(i);
      Item plain = decompress(scanned.getItem());
      if (plain != scanned.getItem()) {
        if (b == null) {
          b = response.toBuilder();
        }
        b.setItems(i, scanned.toBuilder().setItem(plain));
      }
    }
    return b == null ? response : b.build();
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
