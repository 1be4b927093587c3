package io.varve.core.index;

import io.varve.core.time.Rfc3339;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;

/**
 * The type an item's value is indexed as. An item value is bytes; it is parsed from its UTF-8 text
 * into the type's Java value ({@link #parse}), and a value that does not parse is left out of the
 * index. Query values (equals, range bounds) are parsed the same way.
 */
public enum FieldType {
  /**
   * Exact text, at most {@value #MAX_KEYWORD_BYTES} bytes of UTF-8; equals matches the whole value.
   */
  KEYWORD("a UTF-8 text of at most " + FieldType.MAX_KEYWORD_BYTES + " bytes"),
  /** Analyzed text; equals matches events whose value contains all the query's words. */
  TEXT("UTF-8 text"),
  /** A 32-bit signed integer in decimal. */
  INTEGER("a 32-bit integer in decimal, like 42"),
  /** A 64-bit signed integer in decimal. */
  LONG("a 64-bit integer in decimal, like 42"),
  /** A finite decimal or scientific number. */
  DOUBLE("a finite number, like 4.2 or 1e-3"),
  /** {@code true} or {@code false}, in any case. */
  BOOLEAN("true or false"),
  /**
   * An RFC 3339 instant ({@code 2024-10-02T00:00:00.000Z}) or milliseconds since the epoch; kept to
   * the millisecond.
   */
  TIMESTAMP("an RFC 3339 instant like 2024-10-02T00:00:00.000Z, or milliseconds since the epoch");

  /** The longest KEYWORD value indexed, in bytes (the index store's term limit is 32766). */
  public static final int MAX_KEYWORD_BYTES = 8191;

  private final String expected;

  FieldType(String expected) {
    this.expected = expected;
  }

  /** What a value of this type looks like, for error messages. */
  public String expected() {
    return expected;
  }

  /** The type named {@code name} (any case), or null. */
  public static FieldType named(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The value as this type: String (KEYWORD, TEXT), Integer, Long, Double, Boolean, or Long epoch
   * milliseconds (TIMESTAMP); null when the bytes do not parse.
   */
  public Object parse(byte[] value) {
    String text = utf8(value);
    if (text == null) {
      return null;
    }
    try {
      return switch (this) {
        case KEYWORD -> value.length <= MAX_KEYWORD_BYTES ? text : null;
        case TEXT -> text;
        case INTEGER -> Integer.parseInt(text.trim());
        case LONG -> Long.parseLong(text.trim());
        case DOUBLE -> {
          double d = Double.parseDouble(text.trim());
          yield Double.isFinite(d)
                  && !text.trim().endsWith("d")
                  && !text.trim().endsWith("f")
                  && !text.trim().endsWith("D")
                  && !text.trim().endsWith("F")
              ? d
              : null;
        }
        case BOOLEAN ->
            text.trim().equalsIgnoreCase("true")
                ? Boolean.TRUE
                : text.trim().equalsIgnoreCase("false") ? Boolean.FALSE : null;
        case TIMESTAMP -> timestamp(text.trim());
      };
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The canonical text of a parsed value (TIMESTAMP as RFC 3339 UTC with milliseconds). */
  public String render(Object parsed) {
    if (this == TIMESTAMP) {
      return Instant.ofEpochMilli(((Number) parsed).longValue()).toString();
    }
    return parsed.toString();
  }

  private static Long timestamp(String text) {
    if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9' || c == '-')) {
      return Long.parseLong(text);
    }
    try {
      // strict: a lenient parser would index 24:00 or :60 as another instant than the one written
      return Rfc3339.parse(text).toEpochMilli();
    } catch (Rfc3339.InvalidTimeException | ArithmeticException e) {
      return null;
    }
  }

  private static String utf8(byte[] value) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(value))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
