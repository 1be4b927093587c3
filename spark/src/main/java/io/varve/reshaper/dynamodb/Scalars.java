package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.type.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The attributes of the CQL types that are one attribute each (see {@link AttributeValues} for the
 * mapping), and the messages of what does not convert.
 */
final class Scalars {
  /** Always three fraction digits, so that the texts of timestamps sort as the timestamps do. */
  private static final DateTimeFormatter INSTANT =
      new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

  private static final Pattern UUID_TEXT =
      Pattern.compile(
          "\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}");

  private Scalars() {}

  /** The attribute of a (non-null) value of a scalar kind. */
  static AttributeValue of(Kind kind, DataType type, Object value) {
    return switch (kind) {
      case ASCII -> AttributeValue.fromS(ascii(cast(String.class, value, type)));
      case TEXT -> AttributeValue.fromS(cast(String.class, value, type));
      case TINYINT -> AttributeValue.fromN(cast(Byte.class, value, type).toString());
      case SMALLINT -> AttributeValue.fromN(cast(Short.class, value, type).toString());
      case INT -> AttributeValue.fromN(cast(Integer.class, value, type).toString());
      case BIGINT, COUNTER -> AttributeValue.fromN(cast(Long.class, value, type).toString());
      case VARINT ->
          AttributeValue.fromN(
              Numbers.text(new BigDecimal(cast(BigInteger.class, value, type)), "varint"));
      case FLOAT -> {
        float f = cast(Float.class, value, type);
        yield AttributeValue.fromN(
            Numbers.floating(Float.toString(f), Float.isFinite(f), f == 0, "float"));
      }
      case DOUBLE -> {
        double d = cast(Double.class, value, type);
        yield AttributeValue.fromN(
            Numbers.floating(Double.toString(d), Double.isFinite(d), d == 0, "double"));
      }
      case DECIMAL ->
          AttributeValue.fromN(Numbers.text(cast(BigDecimal.class, value, type), "decimal"));
      case BOOLEAN -> AttributeValue.fromBool(cast(Boolean.class, value, type));
      case BLOB -> {
        ByteBuffer bytes = cast(ByteBuffer.class, value, type).duplicate();
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        yield AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(copy));
      }
      case TIMESTAMP -> AttributeValue.fromS(instant(cast(Instant.class, value, type)));
      case DATE -> AttributeValue.fromS(cast(LocalDate.class, value, type).toString());
      case TIME -> AttributeValue.fromS(cast(LocalTime.class, value, type).toString());
      case DURATION -> {
        // The driver writes a zero duration as no text at all, which it does not read.
        String text = cast(CqlDuration.class, value, type).toString();
        yield AttributeValue.fromS(text.isEmpty() ? "0s" : text);
      }
      case UUID -> AttributeValue.fromS(cast(UUID.class, value, type).toString());
      case TIMEUUID -> {
        UUID uuid = cast(UUID.class, value, type);
        if (uuid.version() != 1) {
          throw new UnmappableValueException(
              "a version "
                  + uuid.version()
                  + " uuid "
                  + uuid
                  + " where timeuuid expects version 1");
        }
        yield AttributeValue.fromS(uuid.toString());
      }
      case INET -> {
        // The driver keeps no scope (%eth0) of an IPv6 address: neither does the attribute.
        String host = cast(InetAddress.class, value, type).getHostAddress();
        int scope = host.indexOf('%');
        yield AttributeValue.fromS(scope < 0 ? host : host.substring(0, scope));
      }
      default -> throw new IllegalArgumentException(kind + " is not a scalar");
    };
  }

  /** The value of a (non-NULL) attribute for a column, or a nested value, of a scalar kind. */
  static Object value(Kind kind, DataType type, AttributeValue a, boolean nested) {
    return switch (kind) {
      case ASCII -> {
        String s = text(a, type, nested);
        if (!isAscii(s)) {
          throw mismatch(a, type, nested, "ASCII characters only");
        }
        yield s;
      }
      case TEXT -> text(a, type, nested);
      case TINYINT -> Byte.valueOf(Numbers.integer(a, type, nested, 8).byteValue());
      case SMALLINT -> Short.valueOf(Numbers.integer(a, type, nested, 16).shortValue());
      case INT -> Integer.valueOf(Numbers.integer(a, type, nested, 32).intValue());
      case BIGINT, COUNTER -> Long.valueOf(Numbers.integer(a, type, nested, 64).longValue());
      case VARINT -> Numbers.integer(a, type, nested, 0);
      case FLOAT -> Numbers.toFloat(a, type, nested);
      case DOUBLE -> Numbers.toDouble(a, type, nested);
      case DECIMAL -> Numbers.number(a, type, nested);
      case BOOLEAN -> {
        if (a.type() != AttributeValue.Type.BOOL) {
          throw mismatch(a, type, nested, "BOOL");
        }
        yield a.bool();
      }
      case BLOB -> {
        if (a.type() != AttributeValue.Type.B) {
          throw mismatch(a, type, nested, "B");
        }
        yield ByteBuffer.wrap(a.b().asByteArray());
      }
      case TIMESTAMP -> timestamp(a, type, nested);
      case DATE -> {
        try {
          LocalDate date = LocalDate.parse(text(a, type, nested));
          if (date.toEpochDay() != (int) date.toEpochDay()) {
            throw Numbers.outOfRange(a, type);
          }
          yield date;
        } catch (DateTimeException e) {
          throw mismatch(a, type, nested, "an S of yyyy-MM-dd");
        }
      }
      case TIME -> {
        try {
          yield LocalTime.parse(text(a, type, nested));
        } catch (DateTimeException e) {
          throw mismatch(a, type, nested, "an S of HH:mm:ss.fffffffff");
        }
      }
      case DURATION -> {
        try {
          yield CqlDuration.from(text(a, type, nested));
        } catch (IllegalArgumentException | ArithmeticException e) {
          throw mismatch(a, type, nested, "an S duration such as 1y2mo3d4h5m6s7ms8us9ns");
        }
      }
      case UUID, TIMEUUID -> {
        String s = text(a, type, nested);
        if (!UUID_TEXT.matcher(s).matches()) {
          throw mismatch(a, type, nested, "an S uuid such as 123e4567-e89b-12d3-a456-426614174000");
        }
        UUID uuid = UUID.fromString(s);
        if (kind == Kind.TIMEUUID && uuid.version() != 1) {
          throw mismatch(a, type, nested, "version 1, not " + uuid.version());
        }
        yield uuid;
      }
      case INET -> {
        InetAddress address = inet(text(a, type, nested));
        if (address == null) {
          throw mismatch(a, type, nested, "an S IPv4 or IPv6 address literal");
        }
        yield address;
      }
      default -> throw new IllegalArgumentException(kind + " is not a scalar");
    };
  }

  /** The name of an M entry for a map key: the key's S or N text, true/false, base64 of a blob. */
  static String keyText(Kind kind, DataType type, Object key) {
    return switch (kind) {
      case BOOLEAN -> cast(Boolean.class, key, type).toString();
      case BLOB -> Base64.getEncoder().encodeToString(of(kind, type, key).b().asByteArrayUnsafe());
      default -> {
        AttributeValue a = of(kind, type, key);
        yield kind.attribute == ScalarAttributeType.N ? a.n() : a.s();
      }
    };
  }

  /** The map key of an M entry's name; the message names the map type, as mapType's column. */
  static Object keyValue(Kind kind, DataType type, String name, DataType mapType, boolean nested) {
    try {
      return switch (kind) {
        case BOOLEAN -> {
          if (!name.equals("true") && !name.equals("false")) {
            throw new IllegalArgumentException(name);
          }
          yield Boolean.valueOf(name);
        }
        case BLOB -> ByteBuffer.wrap(Base64.getDecoder().decode(name));
        default -> {
          boolean n = kind.attribute == ScalarAttributeType.N;
          yield value(
              kind, type, n ? AttributeValue.fromN(name) : AttributeValue.fromS(name), true);
        }
      };
    } catch (UnmappableValueException | IllegalArgumentException e) {
      throw new UnmappableValueException(
          "M key \""
              + abbreviate(name)
              + "\" where "
              + where(mapType, nested)
              + " expects keys of "
              + Kind.name(type));
    }
  }

  /** What an attribute is, for a message: its type and its value, or its size. */
  static String describe(AttributeValue a) {
    return switch (a.type()) {
      case S -> "S \"" + abbreviate(a.s()) + "\"";
      case N -> "N " + abbreviate(a.n());
      case B -> "B of " + a.b().asByteArrayUnsafe().length + " bytes";
      case BOOL -> "BOOL " + a.bool();
      case NUL -> "NULL";
      case L -> "L of " + a.l().size() + " elements";
      case M -> "M of " + a.m().size() + " entries";
      case SS -> "SS of " + a.ss().size() + " strings";
      case NS -> "NS of " + a.ns().size() + " numbers";
      case BS -> "BS of " + a.bs().size() + " binaries";
      default -> "an attribute of no known type";
    };
  }

  static UnmappableValueException mismatch(
      AttributeValue a, DataType type, boolean nested, String expected) {
    return new UnmappableValueException(
        describe(a) + " where " + where(type, nested) + " expects " + expected);
  }

  /** "a bigint column", "an int column"; "a nested int" for an element of a collection. */
  static String where(DataType type, boolean nested) {
    String name = Kind.name(type);
    if (nested) {
      return "a nested " + name;
    }
    return ("aeio".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name + " column";
  }

  static <T> T cast(Class<T> expected, Object value, DataType type) {
    if (!expected.isInstance(value)) {
      throw new UnmappableValueException(
          "a "
              + value.getClass().getName()
              + " where "
              + Kind.name(type)
              + " expects a "
              + expected.getName());
    }
    return expected.cast(value);
  }

  private static Instant timestamp(AttributeValue a, DataType type, boolean nested) {
    String expected =
        "an S ISO-8601 instant such as 2024-01-31T12:00:00.000Z or an N of epoch milliseconds";
    if (a.type() == AttributeValue.Type.N) {
      return Instant.ofEpochMilli(Numbers.integer(a, type, nested, 64).longValue());
    } else if (a.type() != AttributeValue.Type.S) {
      throw mismatch(a, type, nested, expected);
    }
    Instant instant;
    try {
      instant = Instant.parse(a.s());
      instant.toEpochMilli();
    } catch (DateTimeException | ArithmeticException e) {
      throw mismatch(a, type, nested, expected);
    }
    if (instant.getNano() % 1_000_000 != 0) {
      throw mismatch(a, type, nested, "whole milliseconds");
    }
    return instant;
  }

  private static String instant(Instant value) {
    try {
      return INSTANT.format(Instant.ofEpochMilli(value.toEpochMilli()));
    } catch (ArithmeticException e) {
      throw new UnmappableValueException(value + " is outside the range of a timestamp");
    }
  }

  /** The address of an IPv4 (dotted quad) or IPv6 literal, never looked up; null for other text. */
  static InetAddress inet(String text) {
    try {
      if (text.indexOf(':') >= 0) {
        // Only hexadecimal digits, colons and dots, and a first character the JDK then parses
        // as an IPv6 literal without asking DNS (it says a bad one is invalid).
        for (int i = 0; i < text.length(); i++) {
          char c = text.charAt(i);
          if (!(c == ':' || c == '.' || hex(c)) || (i == 0 && c == '.')) {
            return null;
          }
        }
        return InetAddress.getByName(text);
      }
      String[] parts = text.split("\\.", -1);
      if (parts.length != 4) {
        return null;
      }
      byte[] bytes = new byte[4];
      for (int i = 0; i < 4; i++) {
        String part = parts[i];
        if (part.isEmpty() || part.length() > 3 || (part.length() > 1 && part.charAt(0) == '0')) {
          return null;
        }
        int octet = 0;
        for (int j = 0; j < part.length(); j++) {
          char c = part.charAt(j);
          if (c < '0' || c > '9') {
            return null;
          }
          octet = octet * 10 + (c - '0');
        }
        if (octet > 255) {
          return null;
        }
        bytes[i] = (byte) octet;
      }
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static boolean hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static String text(AttributeValue a, DataType type, boolean nested) {
    if (a.type() != AttributeValue.Type.S) {
      throw mismatch(a, type, nested, "S");
    }
    return a.s();
  }

  private static String ascii(String s) {
    if (!isAscii(s)) {
      throw new UnmappableValueException("\"" + abbreviate(s) + "\" is not ASCII, as ascii is");
    }
    return s;
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) > 0x7f) {
        return false;
      }
    }
    return true;
  }

  static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
