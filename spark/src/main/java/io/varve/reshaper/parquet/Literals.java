package io.varve.reshaper.parquet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** The strict parsers of the values Parquet files hold as text or as bytes. */
final class Literals {

  /** The Julian day of 1970-01-01, the epoch of CQL dates and timestamps. */
  static final long EPOCH_JULIAN_DAY = 2_440_588L;

  static final long MILLIS_PER_DAY = 86_400_000L;
  static final long NANOS_PER_DAY = 86_400_000_000_000L;

  private Literals() {}

  /** {@code bytes} as UTF-8, or null when they are not valid UTF-8. */
  static String utf8(ByteBuffer bytes) {
    try {
      CharBuffer text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(bytes.duplicate());
      return text.toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Whether {@code text} holds only ASCII characters. */
  static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) > 0x7f) {
        return false;
      }
    }
    return true;
  }

  /** The UUID {@code text} writes in its canonical 8-4-4-4-12 hexadecimal form, else null. */
  static UUID uuid(String text) {
    if (text.length() != 36) {
      return null;
    }
    for (int i = 0; i < 36; i++) {
      char c = text.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : !isHex(c)) {
        return null;
      }
    }
    return UUID.fromString(text);
  }

  /** The UUID of 16 big-endian bytes (Parquet's {@code UUID}). */
  static UUID uuid(ByteBuffer bytes) {
    ByteBuffer b = bytes.duplicate().order(ByteOrder.BIG_ENDIAN);
    return new UUID(b.getLong(), b.getLong());
  }

  /**
   * The address {@code text} writes as an IPv4 (dotted decimal) or IPv6 literal, else null. A host
   * name is never looked up.
   */
  static InetAddress inet(String text) {
    byte[] v4 = ipv4(text);
    try {
      if (v4 != null) {
        return InetAddress.getByAddress(v4);
      }
      if (text.indexOf(':') < 0 || !(text.charAt(0) == ':' || isHex(text.charAt(0)))) {
        return null;
      }
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c != ':' && c != '.' && !isHex(c)) {
          return null;
        }
      }
      // Only hexadecimal digits, colons and dots, the first a digit or a colon: the JDK parses it
      // as an IPv6 literal and fails rather than look it up.
      return InetAddress.getByName(text);
    } catch (UnknownHostException | IllegalArgumentException e) {
      return null;
    }
  }

  private static byte[] ipv4(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] address = new byte[4];
    for (int i = 0; i < 4; i++) {
      String part = parts[i];
      if (part.isEmpty() || part.length() > 3) {
        return null;
      }
      int value = 0;
      for (int j = 0; j < part.length(); j++) {
        char c = part.charAt(j);
        if (c < '0' || c > '9') {
          return null;
        }
        value = value * 10 + (c - '0');
      }
      if (value > 255) {
        return null;
      }
      address[i] = (byte) value;
    }
    return address;
  }

  /**
   * The days since the epoch and the nanoseconds of the day of an {@code INT96} timestamp (8 bytes
   * little-endian of nanoseconds of the day, then 4 bytes little-endian of the Julian day), or null
   * when it is not 12 bytes long.
   */
  static long[] int96(ByteBuffer bytes) {
    if (bytes.remaining() != 12) {
      return null;
    }
    ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long nanosOfDay = b.getLong();
    long julianDay = b.getInt();
    return new long[] {julianDay - EPOCH_JULIAN_DAY, nanosOfDay};
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
