package io.varve.perf.kv;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The items the benchmark writes, the same on both sides: keys of a prefix and a fixed-width
 * number, values cut from one buffer of random (incompressible) bytes, so that neither side gains
 * from the server's compression. An item's size is its key's plus its value's bytes, as a page
 * counts them.
 */
final class ItemData {

  /** An item: its key and value. */
  record Item(byte[] key, byte[] value) {

    long bytes() {
      return (long) key.length + value.length;
    }
  }

  /** The largest item size: the value limit, which a key does not count against. */
  static final int MAX_ITEM_BYTES = 1024 * 1024;

  /**
   * Sizes and weights of the record of mixed sizes: mostly small items and a few of 1 MiB, the case
   * where a fixed row limit fits no page well.
   */
  static final int[] MIXED_SIZES = {100, 1024, 10 * 1024, 100 * 1024, MAX_ITEM_BYTES};

  static final int[] MIXED_WEIGHTS = {40, 25, 20, 10, 5};

  private static final int OFFSETS = 64;

  private final byte[] random = new byte[MAX_ITEM_BYTES + OFFSETS];

  ItemData(long seed) {
    new Random(seed).nextBytes(random);
  }

  /**
   * Key {@code <prefix><n, at least 8 digits>}, n not negative. Built without {@code
   * String.format}, which took a tenth of the load generator's CPU in a profile of the put phase.
   */
  static byte[] key(String prefix, long n) {
    if (n < 0) {
      throw new IllegalArgumentException("n: " + n + " (expected: not negative)");
    }
    String digits = Long.toString(n);
    StringBuilder key = new StringBuilder(prefix.length() + Math.max(8, digits.length()));
    key.append(prefix);
    for (int i = digits.length(); i < 8; i++) {
      key.append('0');
    }
    return key.append(digits).toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Item {@code n} of {@code bytes} (key plus value, at most {@link #MAX_ITEM_BYTES} of value). */
  Item item(String prefix, long n, int bytes) {
    byte[] key = key(prefix, n);
    int valueBytes = Math.max(0, bytes - key.length);
    byte[] value = new byte[valueBytes];
    System.arraycopy(random, (int) (n % OFFSETS), value, 0, valueBytes);
    return new Item(key, value);
  }

  /** {@code count} items of {@code bytes} each, keys {@code <prefix>00000000} on. */
  List<Item> items(String prefix, int count, int bytes) {
    List<Item> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      items.add(item(prefix, i, bytes));
    }
    return items;
  }

  /** {@code count} items of sizes drawn from {@link #MIXED_SIZES} (seeded, so every run alike). */
  List<Item> mixed(String prefix, int count, long seed) {
    Random sizes = new Random(seed);
    int total = java.util.Arrays.stream(MIXED_WEIGHTS).sum();
    List<Item> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int pick = sizes.nextInt(total);
      int k = 0;
      while (pick >= MIXED_WEIGHTS[k]) {
        pick -= MIXED_WEIGHTS[k++];
      }
      items.add(item(prefix, i, MIXED_SIZES[k]));
    }
    return items;
  }

  /**
   * The items split into requests of at most {@code maxItems} items and {@code maxBytes} bytes (an
   * item larger than that alone), in order.
   */
  static List<List<Item>> requests(List<Item> items, int maxItems, long maxBytes) {
    List<List<Item>> requests = new ArrayList<>();
    List<Item> current = new ArrayList<>();
    long bytes = 0;
    for (Item item : items) {
      if (!current.isEmpty() && (current.size() == maxItems || bytes + item.bytes() > maxBytes)) {
        requests.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(item);
      bytes += item.bytes();
    }
    if (!current.isEmpty()) {
      requests.add(current);
    }
    return requests;
  }
}
