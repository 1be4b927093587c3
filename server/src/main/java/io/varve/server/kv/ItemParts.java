package io.varve.server.kv;

import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.Item;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.kv.ValueParts;

/**
 * The items of a value returned in parts: {@code chunk} the part's index, {@code value} its bytes,
 * {@code chunked} the whole (part count, size as returned, CRC32C, part size), {@code metadata} as
 * for a whole value.
 */
final class ItemParts {

  private ItemParts() {}

  /** The item of part {@code parts.index()}, whose bytes {@code item.value()} holds. */
  static Item of(KvItem item, ValueParts parts) {
    return KvRequests.item(item, true).toBuilder()
        .setChunk(parts.index())
        .setChunked(
            ChunkedValue.newBuilder()
                .setChunkCount(parts.count())
                .setValueSize(parts.size())
                .setCrc32C(parts.crc32c())
                .setChunkSize(parts.partBytes()))
        .build();
  }

  /** The item of part {@code parts.index()} of the value of {@code key}: {@code bytes}. */
  static Item of(byte[] key, byte[] bytes, ValueParts parts) {
    ValueMetadata stored = parts.stored();
    return of(
        new KvItem(
            key,
            bytes,
            stored.valueSize(),
            parts.generationMicros(),
            parts.asStored() ? stored.compression() : ValueMetadata.Compression.NONE),
        parts);
  }
}
