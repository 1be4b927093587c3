package io.varve.server.kv;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.Selection;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvValidation;
import io.varve.core.kv.ValueMetadata;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Maps KeyValue messages to the core model and back, validating every field on the way in. */
final class KvRequests {

  private KvRequests() {}

  static IdempotencyToken token(
      boolean present, io.varve.api.kv.v1.IdempotencyToken t, Instant now, KvLimits limits) {
    return IdempotencyToken.of(
        present,
        t.getGenerationTime().getSeconds(),
        t.getGenerationTime().getNanos(),
        t.getToken(),
        now,
        limits);
  }

  static List<KvItem> items(List<Item> items, KvLimits limits) {
    return items(items, limits, KvChunking.DEFAULT);
  }

  /**
   * The items of a PutItems. An item may carry metadata with only {@code compression}: {@code
   * "zstd"} for a value the client compressed, checked to decompress within {@code
   * chunking.maxValueBytes()} (all such values of the request together), one after the other.
   */
  static List<KvItem> items(List<Item> items, KvLimits limits, KvChunking chunking) {
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i).hasChunk() || items.get(i).hasChunked()) {
        throw InvalidFieldException.of(
            "items[" + i + "]." + (items.get(i).hasChunk() ? "chunk" : "chunked"),
            "set (expected: absent; a value is staged in parts and committed with PutItems only)");
      }
    }
    return items(items, limits, chunking, i -> i);
  }

  /**
   * As above, where item {@code i} is {@code items[position(i)]} of the request; the items are
   * whole values (no part or commit of the chunked protocol).
   */
  static List<KvItem> items(
      List<Item> items,
      KvLimits limits,
      KvChunking chunking,
      java.util.function.IntUnaryOperator position) {
    List<Boolean> otherMetadata =
        items.stream()
            .map(
                i ->
                    i.hasMetadata()
                        && !i.getMetadata().toBuilder()
                            .clearCompression()
                            .build()
                            .equals(ItemMetadata.getDefaultInstance()))
            .toList();
    List<KvItem> sent =
        KvValidation.items(
            items.stream()
                .map(i -> KvItem.of(i.getKey().toByteArray(), i.getValue().toByteArray()))
                .toList(),
            otherMetadata,
            limits,
            chunking,
            position);
    List<KvItem> checked = new java.util.ArrayList<>(sent.size());
    long decompressed = 0;
    for (int i = 0; i < sent.size(); i++) {
      KvItem item = sent.get(i);
      String compression = items.get(i).getMetadata().getCompression();
      if (compression.isEmpty()) {
        checked.add(item);
        continue;
      }
      if (!compression.equals(ClientCompression.ZSTD)) {
        throw new InvalidFieldException(
            "items[" + position.applyAsInt(i) + "].metadata.compression",
            compression,
            "\"\" or \"zstd\"");
      }
      long size =
          ClientCompression.decompressedSize(
              "items[" + position.applyAsInt(i) + "].value",
              item.value(),
              chunking.maxValueBytes() - decompressed);
      decompressed += size;
      checked.add(new KvItem(item.key(), item.value(), size, 0, ValueMetadata.Compression.ZSTD));
    }
    return checked;
  }

  /**
   * Whether a GetItems client signalled that it decompresses zstd values itself: {@code signals}
   * holds {@code "compression": {"zstd": true}}.
   */
  static boolean acceptsCompression(java.util.Map<String, com.google.protobuf.Struct> signals) {
    com.google.protobuf.Struct s = signals.get("compression");
    return s != null
        && s.getFieldsOrDefault(
                ClientCompression.ZSTD, com.google.protobuf.Value.getDefaultInstance())
            .getBoolValue();
  }

  /**
   * The predicate of a request; {@code required}: refused when absent (DeleteItems), otherwise
   * match_all.
   */
  static ItemPredicate predicate(
      boolean present, Predicate p, boolean required, ClusteringOrder order, KvLimits limits) {
    if (!present || p.getMatchCase() == Predicate.MatchCase.MATCH_NOT_SET) {
      if (required) {
        throw InvalidFieldException.of(
            "predicate", "missing (expected: match_all, match_keys or match_range)");
      }
      return new ItemPredicate.All();
    }
    return switch (p.getMatchCase()) {
      case MATCH_ALL -> new ItemPredicate.All();
      case MATCH_KEYS ->
          new ItemPredicate.Keys(
              KvValidation.matchKeys(
                  "predicate.match_keys.keys",
                  p.getMatchKeys().getKeysList().stream().map(ByteString::toByteArray).toList(),
                  order,
                  limits));
      case MATCH_RANGE ->
          new ItemPredicate.Range(
              KvValidation.range("predicate.match_range", range(p.getMatchRange()), limits));
      case MATCH_NOT_SET -> throw new IllegalStateException();
    };
  }

  private static KeyRange range(MatchRange r) {
    return new KeyRange(
        r.hasStart() ? Optional.of(r.getStart().toByteArray()) : Optional.empty(),
        !r.hasStartInclusive() || r.getStartInclusive(),
        r.hasEnd() ? Optional.of(r.getEnd().toByteArray()) : Optional.empty(),
        r.hasEndInclusive() && r.getEndInclusive());
  }

  /** {@code selection.page_size_bytes}: 0 is the default, else 1..maxPageSizeBytes. */
  static int pageSize(Selection selection, KvLimits limits) {
    int pageSize =
        selection.getPageSizeBytes() == 0
            ? limits.defaultPageSizeBytes()
            : selection.getPageSizeBytes();
    if (pageSize < 1 || pageSize > limits.maxPageSizeBytes()) {
      throw new InvalidFieldException(
          "selection.page_size_bytes", pageSize, "1.." + limits.maxPageSizeBytes());
    }
    if (selection.getItemLimit() < 0) {
      throw new InvalidFieldException(
          "selection.item_limit", selection.getItemLimit(), "0 (none) or more");
    }
    return pageSize;
  }

  /** Whether a selection returns values: unless {@code include_values} is false. */
  static boolean values(Selection selection) {
    return !selection.hasIncludeValues() || selection.getIncludeValues();
  }

  static Item item(KvItem item, boolean values) {
    Item.Builder b =
        Item.newBuilder()
            .setKey(ByteString.copyFrom(item.key()))
            .setMetadata(
                ItemMetadata.newBuilder()
                    .setValueSize(item.valueSize())
                    .setCompression(
                        item.compression() == ValueMetadata.Compression.ZSTD
                            ? ClientCompression.ZSTD
                            : "")
                    .setGenerationTime(
                        Timestamp.newBuilder()
                            .setSeconds(Math.floorDiv(item.generationMicros(), 1_000_000L))
                            .setNanos(
                                (int) Math.floorMod(item.generationMicros(), 1_000_000L) * 1000)));
    if (values) {
      // the value array is the item's own (read into it, never shared): no copy
      b.setValue(com.google.protobuf.UnsafeByteOperations.unsafeWrap(item.value()));
    }
    return b.build();
  }
}
