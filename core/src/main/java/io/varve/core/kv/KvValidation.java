package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/** Checks of KeyValue requests, before any work; every error names its field. */
public final class KvValidation {

  private KvValidation() {}

  public static String id(String id, KvLimits limits) {
    int bytes = id.getBytes(StandardCharsets.UTF_8).length;
    if (bytes == 0 || bytes > limits.maxIdBytes()) {
      throw new InvalidFieldException("id", id, "1.." + limits.maxIdBytes() + " UTF-8 bytes");
    }
    return id;
  }

  /**
   * The items of a PutItems, every value in its row: a count, key and value sizes, distinct keys,
   * total bytes.
   */
  public static List<KvItem> items(
      List<KvItem> items, List<Boolean> withMetadata, KvLimits limits) {
    KvChunking inline =
        new KvChunking(
            limits.maxValueBytes(),
            limits.maxValueBytes(),
            limits.maxValueBytes(),
            1,
            KvChunking.DEFAULT.sweepInterval(),
            KvChunking.DEFAULT.grace(),
            KvChunking.DEFAULT.recheck(),
            1);
    return items(items, withMetadata, limits, inline);
  }

  /**
   * The items of a PutItems: a count, key and value sizes, distinct keys, total bytes. Values of at
   * most {@code chunking.threshold()} bytes as sent go into the request's one batch, so their keys
   * and values together are bounded by {@code maxRequestBytes}; larger ones are chunked, each and
   * together at most {@code chunking.maxValueBytes()}.
   */
  public static List<KvItem> items(
      List<KvItem> items, List<Boolean> withMetadata, KvLimits limits, KvChunking chunking) {
    return items(items, withMetadata, limits, chunking, i -> i);
  }

  /**
   * As above, where item {@code i} is {@code items[position(i)]} of the request (a PutItems whose
   * other items are parts and commits of the chunked protocol).
   */
  public static List<KvItem> items(
      List<KvItem> items,
      List<Boolean> withMetadata,
      KvLimits limits,
      KvChunking chunking,
      java.util.function.IntUnaryOperator position) {
    if (items.isEmpty() || items.size() > limits.maxItemsPerRequest()) {
      throw new InvalidFieldException(
          "items", items.size() + " items", "1.." + limits.maxItemsPerRequest());
    }
    long inline = 0;
    long chunked = 0;
    TreeSet<byte[]> keys = new TreeSet<>(KeyRange::compare);
    for (int i = 0; i < items.size(); i++) {
      KvItem item = items.get(i);
      String path = "items[" + position.applyAsInt(i) + "]";
      if (item.key().length > limits.maxKeyBytes()) {
        throw new InvalidFieldException(
            path + ".key",
            item.key().length + " bytes",
            "at most " + limits.maxKeyBytes() + " bytes");
      }
      if (item.value().length > chunking.maxValueBytes()) {
        throw new InvalidFieldException(
            path + ".value",
            item.value().length + " bytes",
            "at most " + chunking.maxValueBytes() + " bytes (kv.chunks.maxValueBytes)");
      }
      if (withMetadata.get(i)) {
        throw InvalidFieldException.of(
            path + ".metadata", "set (expected: absent or only compression; the server writes it)");
      }
      if (!keys.add(item.key())) {
        throw InvalidFieldException.of(
            path + ".key", "a key given twice in one request (expected: distinct keys)");
      }
      if (chunking.chunked(item.value().length)) {
        chunked += item.value().length;
      } else {
        inline += item.key().length + item.value().length;
      }
    }
    if (inline > limits.maxRequestBytes()) {
      throw new InvalidFieldException(
          "items",
          inline + " bytes of keys and values",
          "at most " + limits.maxRequestBytes() + " bytes");
    }
    if (chunked > chunking.maxValueBytes()) {
      throw new InvalidFieldException(
          "items",
          chunked + " bytes of values above " + chunking.threshold() + " bytes",
          "at most " + chunking.maxValueBytes() + " bytes together (kv.chunks.maxValueBytes)");
    }
    return items;
  }

  /**
   * The keys of a match_keys: 1..maxMatchKeys keys of bounded size, deduplicated, in clustering
   * order.
   */
  public static List<byte[]> matchKeys(
      String field, List<byte[]> keys, ClusteringOrder order, KvLimits limits) {
    if (keys.isEmpty() || keys.size() > limits.maxMatchKeys()) {
      throw new InvalidFieldException(field, keys.size() + " keys", "1.." + limits.maxMatchKeys());
    }
    Comparator<byte[]> comparator =
        order == ClusteringOrder.ASC ? KeyRange::compare : (a, b) -> KeyRange.compare(b, a);
    TreeSet<byte[]> sorted = new TreeSet<>(comparator);
    for (int i = 0; i < keys.size(); i++) {
      if (keys.get(i).length > limits.maxKeyBytes()) {
        throw new InvalidFieldException(
            field + "[" + i + "]",
            keys.get(i).length + " bytes",
            "at most " + limits.maxKeyBytes() + " bytes");
      }
      sorted.add(keys.get(i));
    }
    return new ArrayList<>(sorted);
  }

  /** A match_range's bounds: each of bounded size, start not above end. */
  public static KeyRange range(String field, KeyRange range, KvLimits limits) {
    range
        .start()
        .filter(k -> k.length > limits.maxKeyBytes())
        .ifPresent(
            k -> {
              throw new InvalidFieldException(
                  field + ".start",
                  k.length + " bytes",
                  "at most " + limits.maxKeyBytes() + " bytes");
            });
    range
        .end()
        .filter(k -> k.length > limits.maxKeyBytes())
        .ifPresent(
            k -> {
              throw new InvalidFieldException(
                  field + ".end",
                  k.length + " bytes",
                  "at most " + limits.maxKeyBytes() + " bytes");
            });
    if (range.start().isPresent()
        && range.end().isPresent()
        && KeyRange.compare(range.start().get(), range.end().get()) > 0) {
      throw InvalidFieldException.of(
          field + ".end",
          "below start in byte order (expected: start <= end," + " whatever the clustering order)");
    }
    return range;
  }
}
