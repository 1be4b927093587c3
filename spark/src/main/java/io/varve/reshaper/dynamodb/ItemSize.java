package io.varve.reshaper.dynamodb;

import java.math.BigDecimal;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The size of an item as DynamoDB counts it (see {@link AttributeValues#itemSize}). */
final class ItemSize {
  private ItemSize() {}

  static long of(Map<String, AttributeValue> item) {
    long size = 0;
    for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
      size += utf8Length(e.getKey()) + size(e.getValue());
    }
    return size;
  }

  private static long size(AttributeValue a) {
    long size = 0;
    switch (a.type()) {
      case S -> size = utf8Length(a.s());
      case N -> size = numberSize(a.n());
      case B -> size = a.b().asByteArrayUnsafe().length;
      case BOOL, NUL -> size = 1;
      case L -> {
        size = 3;
        for (AttributeValue element : a.l()) {
          size += size(element);
        }
      }
      case M -> size = 3 + of(a.m());
      case SS -> size = a.ss().stream().mapToLong(ItemSize::utf8Length).sum();
      case NS -> size = a.ns().stream().mapToLong(ItemSize::numberSize).sum();
      case BS -> size = a.bs().stream().mapToLong(b -> b.asByteArrayUnsafe().length).sum();
      default -> size = 0;
    }
    return size;
  }

  private static long numberSize(String n) {
    int digits;
    try {
      BigDecimal d = new BigDecimal(n).stripTrailingZeros();
      digits = d.signum() == 0 ? 1 : d.precision();
    } catch (NumberFormatException e) {
      digits = n.length();
    }
    return (digits + 1) / 2 + 1;
  }

  private static long utf8Length(String s) {
    long length = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        length += 4;
        i++;
      } else {
        length += 3;
      }
    }
    return length;
  }
}
