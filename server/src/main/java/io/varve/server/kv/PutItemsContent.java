package io.varve.server.kv;

import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvCommit;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvPart;
import io.varve.core.kv.ValueMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The items of a PutItems sorted by the chunked protocol (docs/key-value.md, "Large values in
 * parts") and validated: whole values, parts staged ({@code Item.chunk}) and commits of staged
 * values ({@code Item.chunked}). Every error names the request's own field, {@code items[i]...}.
 *
 * @param items whole values, written as before
 * @param parts parts to stage
 * @param commits values to commit from their staged parts
 */
record PutItemsContent(List<KvItem> items, List<KvPart> parts, List<KvCommit> commits) {

  /** The keys the request writes rows of: whole values and commits. */
  List<byte[]> writtenKeys() {
    List<byte[]> keys = new ArrayList<>(items.size() + commits.size());
    items.forEach(i -> keys.add(i.key()));
    commits.forEach(c -> keys.add(c.key()));
    return keys;
  }

  static PutItemsContent of(List<Item> sent, KvLimits limits, KvChunking chunking) {
    if (sent.isEmpty() || sent.size() > limits.maxItemsPerRequest()) {
      throw new InvalidFieldException(
          "items", sent.size() + " items", "1.." + limits.maxItemsPerRequest());
    }
    List<Item> whole = new ArrayList<>();
    List<Integer> wholeAt = new ArrayList<>();
    List<KvPart> parts = new ArrayList<>();
    List<KvCommit> commits = new ArrayList<>();
    TreeSet<byte[]> committed = new TreeSet<>(KeyRange::compare);
    TreeMap<byte[], Set<Integer>> staged = new TreeMap<>(KeyRange::compare);
    long partBytes = 0;
    for (int i = 0; i < sent.size(); i++) {
      Item item = sent.get(i);
      String path = "items[" + i + "]";
      if (!item.hasChunk() && !item.hasChunked()) {
        whole.add(item);
        wholeAt.add(i);
        continue;
      }
      byte[] key = item.getKey().toByteArray();
      if (key.length > limits.maxKeyBytes()) {
        throw new InvalidFieldException(
            path + ".key", key.length + " bytes", "at most " + limits.maxKeyBytes() + " bytes");
      }
      if (item.hasChunk()) {
        parts.add(part(path, item, key, chunking));
        partBytes += item.getValue().size();
        if (!staged.computeIfAbsent(key, k -> new HashSet<>()).add(item.getChunk())) {
          throw InvalidFieldException.of(
              path + ".chunk",
              "part " + item.getChunk() + " of one key given twice (expected: distinct parts)");
        }
      } else {
        if (!committed.add(key)) {
          throw InvalidFieldException.of(
              path + ".key", "committed twice in one request (expected: distinct keys)");
        }
        commits.add(commit(path, item, key, chunking));
      }
    }
    List<KvItem> items =
        whole.isEmpty()
            ? List.of()
            : KvRequests.items(whole, limits, chunking, i -> wholeAt.get(i));
    for (int i = 0; i < items.size(); i++) {
      byte[] key = items.get(i).key();
      if (committed.contains(key) || staged.containsKey(key)) {
        throw InvalidFieldException.of(
            "items[" + wholeAt.get(i) + "].key",
            "written whole and also staged or committed in parts in this request (expected: one"
                + " or the other)");
      }
    }
    long wholeChunked =
        items.stream()
            .filter(i -> chunking.chunked(i.value().length))
            .mapToLong(i -> i.value().length)
            .sum();
    if (partBytes + wholeChunked > chunking.maxValueBytes()) {
      throw new InvalidFieldException(
          "items",
          (partBytes + wholeChunked)
              + " bytes of parts and of values above "
              + chunking.threshold(),
          "at most " + chunking.maxValueBytes() + " bytes together (kv.chunks.maxValueBytes)");
    }
    return new PutItemsContent(items, parts, commits);
  }

  private static KvPart part(String path, Item item, byte[] key, KvChunking chunking) {
    if (item.hasChunked()) {
      throw InvalidFieldException.of(
          path + ".chunked",
          "set with chunk (expected: a part sets chunk only; its commit sets chunked only)");
    }
    if (item.hasMetadata()) {
      throw InvalidFieldException.of(
          path + ".metadata",
          "set on a part (expected: absent; metadata.compression goes on the commit)");
    }
    if (item.getChunk() < 0 || item.getChunk() >= chunking.maxParts()) {
      throw new InvalidFieldException(
          path + ".chunk",
          item.getChunk(),
          "0.."
              + (chunking.maxParts() - 1)
              + " (a value has at most kv.chunks.maxValueBytes / 64 KiB parts)");
    }
    int size = item.getValue().size();
    if (size < 1 || size > chunking.chunkSize()) {
      throw new InvalidFieldException(
          path + ".value",
          size + " bytes",
          "1.." + chunking.chunkSize() + " bytes in a part (kv.chunks.chunkSize)");
    }
    return new KvPart(key, item.getChunk(), item.getValue().asReadOnlyByteBuffer());
  }

  private static KvCommit commit(String path, Item item, byte[] key, KvChunking chunking) {
    if (!item.getValue().isEmpty()) {
      throw new InvalidFieldException(
          path + ".value",
          item.getValue().size() + " bytes",
          "empty in a commit (the value is in its staged parts)");
    }
    ChunkedValue c = item.getChunked();
    if (c.getChunkCount() < 1 || c.getChunkCount() > chunking.maxParts()) {
      throw new InvalidFieldException(
          path + ".chunked.chunk_count", c.getChunkCount(), "1.." + chunking.maxParts());
    }
    if (c.getValueSize() < 1 || c.getValueSize() > chunking.maxValueBytes()) {
      throw new InvalidFieldException(
          path + ".chunked.value_size",
          c.getValueSize(),
          "1.." + chunking.maxValueBytes() + " (kv.chunks.maxValueBytes)");
    }
    if (c.getValueSize() > (long) c.getChunkCount() * chunking.chunkSize()) {
      throw new InvalidFieldException(
          path + ".chunked.value_size",
          c.getValueSize(),
          "at most chunk_count × kv.chunks.chunkSize = "
              + (long) c.getChunkCount() * chunking.chunkSize());
    }
    if (c.getChunkCrc32CCount() != 0 && c.getChunkCrc32CCount() != c.getChunkCount()) {
      throw new InvalidFieldException(
          path + ".chunked.chunk_crc32c",
          c.getChunkCrc32CCount() + " checksums",
          "none, or one per part (" + c.getChunkCount() + ")");
    }
    if (c.getChunkSize() != 0) {
      throw InvalidFieldException.of(
          path + ".chunked.chunk_size",
          "set on a commit (expected: 0; the parts' own sizes are used)");
    }
    ValueMetadata.Compression compression = ValueMetadata.Compression.NONE;
    if (item.hasMetadata()) {
      ItemMetadata m = item.getMetadata();
      if (!m.toBuilder().clearCompression().build().equals(ItemMetadata.getDefaultInstance())) {
        throw InvalidFieldException.of(
            path + ".metadata", "set (expected: absent or only compression; the server writes it)");
      }
      if (m.getCompression().equals(ClientCompression.ZSTD)) {
        compression = ValueMetadata.Compression.ZSTD;
      } else if (!m.getCompression().isEmpty()) {
        throw new InvalidFieldException(
            path + ".metadata.compression", m.getCompression(), "\"\" or \"zstd\"");
      }
    }
    return new KvCommit(
        path,
        key,
        c.getChunkCount(),
        c.getValueSize(),
        c.getCrc32C(),
        List.copyOf(c.getChunkCrc32CList()),
        compression);
  }
}
