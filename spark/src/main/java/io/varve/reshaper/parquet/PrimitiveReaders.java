package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.type.DataType;
import io.varve.reshaper.parquet.ColumnReaders.ValueReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The readers of single CQL values from Parquet primitive fields: what the file holds, converted.
 */
final class PrimitiveReaders {

  interface LongGetter {
    long get(Group group, int field, int index);
  }

  private PrimitiveReaders() {}

  /** The refusal of the value at {@code path}. */
  static IllegalArgumentException refused(String path, String why) {
    return new IllegalArgumentException(path + ": " + why);
  }

  /** The reader of {@code field} into {@code type}, or null when it does not fit. */
  static ValueReader of(PrimitiveType field, DataType type) {
    CqlPrimitive cql = CqlPrimitive.of(type);
    if (cql == null) {
      return null;
    }
    PrimitiveTypeName physical = field.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    switch (cql) {
      case BOOLEAN:
        return physical == PrimitiveTypeName.BOOLEAN ? (g, f, i, p) -> g.getBoolean(f, i) : null;
      case TINYINT:
        return ranged(field, type, Byte.MIN_VALUE, Byte.MAX_VALUE, v -> (byte) v);
      case SMALLINT:
        return ranged(field, type, Short.MIN_VALUE, Short.MAX_VALUE, v -> (short) v);
      case INT:
        return ranged(field, type, Integer.MIN_VALUE, Integer.MAX_VALUE, v -> (int) v);
      case BIGINT:
      case COUNTER:
        return ranged(field, type, Long.MIN_VALUE, Long.MAX_VALUE, v -> v);
      case VARINT:
        return varint(field, type);
      case DECIMAL:
        return decimal(field, type);
      case FLOAT:
        return physical == PrimitiveTypeName.FLOAT ? (g, f, i, p) -> g.getFloat(f, i) : null;
      case DOUBLE:
        if (physical == PrimitiveTypeName.FLOAT) {
          return (g, f, i, p) -> (double) g.getFloat(f, i);
        }
        return physical == PrimitiveTypeName.DOUBLE ? (g, f, i, p) -> g.getDouble(f, i) : null;
      case ASCII:
      case TEXT:
        return text(field, type);
      case BLOB:
        return physical == PrimitiveTypeName.BINARY
                || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
            ? (g, f, i, p) -> ByteBuffer.wrap(g.getBinary(f, i).getBytes())
            : null;
      case TIMESTAMP:
        return TimeReaders.timestamp(field);
      case DATE:
        return physical == PrimitiveTypeName.INT32
                && annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
            ? (g, f, i, p) -> LocalDate.ofEpochDay(g.getInteger(f, i))
            : null;
      case TIME:
        return TimeReaders.time(field);
      case UUID:
      case TIMEUUID:
        return uuid(field, type);
      case INET:
        return parsed(
            field,
            "an IPv4 or IPv6 address literal (host names are not looked up)",
            Literals::inet);
      case DURATION:
        return parsed(field, "a CQL duration", CqlDuration::from);
      default:
        return null;
    }
  }

  /** The signed integer {@code field} holds, plain or annotated as a signed integer, else null. */
  private static LongGetter integral(PrimitiveType field) {
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    if (annotation != null
        && !(annotation instanceof IntLogicalTypeAnnotation
            && ((IntLogicalTypeAnnotation) annotation).isSigned())) {
      return null;
    }
    switch (field.getPrimitiveTypeName()) {
      case INT32:
        return Group::getInteger;
      case INT64:
        return Group::getLong;
      default:
        return null;
    }
  }

  private static ValueReader ranged(
      PrimitiveType field, DataType type, long min, long max, LongFunction<Object> box) {
    LongGetter integral = integral(field);
    if (integral == null) {
      return null;
    }
    String described = Misfit.describe(field);
    return (g, f, i, p) -> {
      long value = integral.get(g, f, i);
      if (value < min || value > max) {
        throw refused(
            p,
            described
                + " "
                + value
                + " does not fit "
                + Misfit.column(type)
                + " (from "
                + min
                + " to "
                + max
                + ")");
      }
      return box.apply(value);
    };
  }

  private static ValueReader varint(PrimitiveType field, DataType type) {
    LongGetter integral = integral(field);
    if (integral != null) {
      return (g, f, i, p) -> BigInteger.valueOf(integral.get(g, f, i));
    }
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    if (annotation instanceof DecimalLogicalTypeAnnotation
        && ((DecimalLogicalTypeAnnotation) annotation).getScale() == 0) {
      return unscaled(field);
    }
    return parsed(field, "an integer", BigInteger::new);
  }

  private static ValueReader decimal(PrimitiveType field, DataType type) {
    LongGetter integral = integral(field);
    if (integral != null) {
      return (g, f, i, p) -> BigDecimal.valueOf(integral.get(g, f, i));
    }
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    if (annotation instanceof DecimalLogicalTypeAnnotation) {
      int scale = ((DecimalLogicalTypeAnnotation) annotation).getScale();
      ValueReader unscaled = unscaled(field);
      return unscaled == null
          ? null
          : (g, f, i, p) -> new BigDecimal((BigInteger) unscaled.read(g, f, i, p), scale);
    }
    return parsed(field, "a decimal number", BigDecimal::new);
  }

  /** The unscaled value, a BigInteger, of a {@code DECIMAL} field. */
  private static ValueReader unscaled(PrimitiveType field) {
    switch (field.getPrimitiveTypeName()) {
      case INT32:
        return (g, f, i, p) -> BigInteger.valueOf(g.getInteger(f, i));
      case INT64:
        return (g, f, i, p) -> BigInteger.valueOf(g.getLong(f, i));
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        return (g, f, i, p) -> {
          byte[] bytes = g.getBinary(f, i).getBytes();
          if (bytes.length == 0) {
            throw refused(p, "an empty " + Misfit.describe(field) + " is not a number");
          }
          return new BigInteger(bytes);
        };
      default:
        return null;
    }
  }

  private static ValueReader text(PrimitiveType field, DataType type) {
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    if (field.getPrimitiveTypeName() != PrimitiveTypeName.BINARY
        || !(annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation)) {
      return null;
    }
    boolean ascii = CqlPrimitive.of(type) == CqlPrimitive.ASCII;
    return (g, f, i, p) -> {
      String text = utf8(g, f, i, p);
      if (ascii && !Literals.isAscii(text)) {
        throw refused(p, quote(text) + " does not fit an ascii column: it is not ASCII");
      }
      return text;
    };
  }

  private static ValueReader uuid(PrimitiveType field, DataType type) {
    boolean timeBased = CqlPrimitive.of(type) == CqlPrimitive.TIMEUUID;
    ValueReader uuid;
    if (field.getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
        && field.getTypeLength() == 16
        && field.getLogicalTypeAnnotation()
            instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
      uuid = (g, f, i, p) -> Literals.uuid(g.getBinary(f, i).toByteBuffer());
    } else {
      uuid = parsed(field, "a UUID in its canonical form", Literals::uuid);
    }
    if (uuid == null || !timeBased) {
      return uuid;
    }
    return (g, f, i, p) -> {
      UUID value = (UUID) uuid.read(g, f, i, p);
      if (value.version() != 1) {
        throw refused(
            p,
            value
                + " is a version-"
                + value.version()
                + " UUID; a timeuuid column holds version-1 UUIDs only");
      }
      return value;
    };
  }

  /**
   * The reader of a {@code STRING} field by {@code parse}, which returns null or throws for a text
   * that is not {@code what}.
   */
  private static ValueReader parsed(
      PrimitiveType field, String what, Function<String, Object> parse) {
    if (field.getPrimitiveTypeName() != PrimitiveTypeName.BINARY
        || !(field.getLogicalTypeAnnotation()
            instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
      return null;
    }
    return (g, f, i, p) -> {
      String text = utf8(g, f, i, p);
      Object value;
      try {
        value = parse.apply(text);
      } catch (RuntimeException e) {
        value = null;
      }
      if (value == null) {
        throw refused(p, quote(text) + " is not " + what);
      }
      return value;
    };
  }

  private static String utf8(Group g, int f, int i, String path) {
    String text = Literals.utf8(g.getBinary(f, i).toByteBuffer());
    if (text == null) {
      throw refused(path, "a STRING value that is not valid UTF-8");
    }
    return text;
  }

  /** {@code text} quoted for a message, its middle left out when long. */
  static String quote(String text) {
    return '"'
        + (text.length() <= 80
            ? text
            : text.substring(0, 60) + "…" + text.substring(text.length() - 10))
        + '"';
  }
}
