package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Converts between CQL values (the Java objects the driver's {@code CodecRegistry.DEFAULT} decodes
 * for a column's type) and DynamoDB attributes, both ways, as pure functions. The mapping:
 *
 * <ul>
 *   <li><b>ascii, text (varchar)</b>: S. An ascii column reads only ASCII text.
 *   <li><b>tinyint, smallint, int, bigint, varint, counter</b>: N, the integer's digits. Reading
 *       takes an integer N (1E+2 is 100) in the column's range, and refuses 1.5 or 300 for a
 *       tinyint.
 *   <li><b>float, double</b>: N, the shortest digits that read back as the same float or double
 *       ({@code Float.toString}, {@code Double.toString}). NaN, the infinities and -0.0 have no
 *       DynamoDB number and are refused, as are magnitudes below 1E-130 or from 1E+126 on (a
 *       double's smallest and largest values). Reading takes the nearest float or double of an N
 *       and refuses an N beyond the type's range.
 *   <li><b>decimal</b>: N, {@code BigDecimal.toString}; refused beyond 38 significant digits or
 *       outside 1E-130 to 9.9999999999999999999999999999999999999E+125 in magnitude. DynamoDB
 *       normalizes numbers: trailing zeros are not kept (3.50 comes back as 3.5, an equal decimal
 *       of another scale), and a zero of any scale is written as 0.
 *   <li><b>boolean</b>: BOOL.
 *   <li><b>blob</b>: B, the bytes as they are (an empty blob is an empty B).
 *   <li><b>timestamp</b>: S, the ISO-8601 UTC instant with milliseconds, always three digits of
 *       them ({@code 2024-01-31T12:00:00.000Z}) so that the texts sort as the instants do (for
 *       years 0 to 9999). Reading takes such an S (any ISO-8601 instant in whole milliseconds) or
 *       an N of epoch milliseconds.
 *   <li><b>date</b>: S {@code yyyy-MM-dd}. <b>time</b>: S {@code HH:mm[:ss[.fff[fff[fff]]]]}
 *       ({@code LocalTime.toString}, nanoseconds kept). <b>duration</b>: S, the CQL duration
 *       literal ({@code 1y2mo3d4h5m6s}; any form CQL reads is read).
 *   <li><b>uuid, timeuuid</b>: S, the canonical 36-character form; a timeuuid column reads only
 *       version-1 uuids.
 *   <li><b>inet</b>: S, the address literal (IPv6 in its full form, {@code 0:0:0:0:0:0:0:1}).
 *       Reading takes IPv4 dotted quads and IPv6 literals only, and never looks a name up.
 *   <li><b>list&lt;T&gt;</b>, frozen or not: L of the elements. <b>vector&lt;float, n&gt;</b> (and
 *       vectors of other numbers): L of N, read only with n elements.
 *   <li><b>set&lt;T&gt;</b>: SS when T is written as S (text, uuid, timestamp, inet...), NS when as
 *       N, BS when as B, else (boolean, collections, tuples, UDTs) L. A set column reads an SS, NS
 *       or BS as fits its elements, or an L.
 *   <li><b>map&lt;K, V&gt;</b>: M whose names are the keys' texts (a text as it is, the S or N text
 *       of the other scalar types, true or false, the base64 of a blob). Keys of collection, tuple
 *       or UDT types have no name: such maps are unmappable.
 *   <li><b>tuple&lt;...&gt;</b>: L of the components in order, a null component a NULL.
 *       <b>User-defined types</b>: M by field name, null fields left out; an M with a name that is
 *       not a field is refused.
 *   <li>A null value, and an empty list, set or map, is no attribute at all (DynamoDB refuses an
 *       empty set): it reads back as null, also for a frozen collection, where CQL tells an empty
 *       one from null. Nested in another value, an empty collection is an empty L or M.
 *   <li>CQL collections hold no nulls (the driver refuses to write them): a null element of a list,
 *       set or vector, or a null map value, is refused both ways.
 *   <li>Values nest up to 32 levels of collections, tuples and UDTs, as DynamoDB documents do;
 *       deeper ones are refused.
 *   <li>Custom types and any other type have no DynamoDB form.
 * </ul>
 *
 * <p>Whatever does not convert throws {@link UnmappableValueException}, whose message names what
 * was found and what was expected.
 */
public final class AttributeValues {
  /** DynamoDB's limit on an item's size: 400 KB = 409_600 bytes. */
  public static final int MAX_ITEM_BYTES = 409_600;

  private AttributeValues() {}

  /**
   * Null when a column of this CQL type maps to a DynamoDB attribute; else a short reason, such as
   * "custom type 'X' has no DynamoDB form".
   */
  public static String unmappable(DataType type) {
    return Kind.unmappable(type, 1);
  }

  /**
   * The key attribute type (S, N or B) a primary-key column of this type becomes, or null when the
   * type cannot be a DynamoDB key (boolean, collections, tuples, UDTs, vectors, custom types).
   */
  public static ScalarAttributeType keyType(DataType type) {
    return Kind.of(type).attribute;
  }

  /**
   * The attribute of a CQL value of a column of this type; null, for no attribute, when the value
   * is null or an empty collection.
   *
   * @throws UnmappableValueException when the type or the value has no DynamoDB form (NaN, a
   *     decimal of 40 digits...), saying why
   */
  public static AttributeValue of(DataType type, Object value) {
    requireMappable(type);
    if (value == null
        || (value instanceof Collection<?> c && c.isEmpty())
        || (value instanceof Map<?, ?> m && m.isEmpty())) {
      return null;
    }
    return write(type, value);
  }

  private static AttributeValue write(DataType type, Object value) {
    Kind kind = Kind.of(type);
    if (kind.scalar()) {
      return Scalars.of(kind, type, value);
    }
    // The type, checked first, nests no deeper than DynamoDB does.
    switch (kind) {
      case LIST:
        return AttributeValue.fromL(
            elements(((ListType) type).getElementType(), Scalars.cast(List.class, value, type)));
      case VECTOR:
        {
          VectorType vector = (VectorType) type;
          List<Object> elements = new ArrayList<>();
          Scalars.cast(CqlVector.class, value, type).forEach(elements::add);
          if (elements.size() != vector.getDimensions()) {
            throw new UnmappableValueException(
                "a vector of " + elements.size() + " where " + Kind.name(type) + " is expected");
          }
          return AttributeValue.fromL(elements(vector.getElementType(), elements));
        }
      case SET:
        {
          DataType elementType = ((SetType) type).getElementType();
          Kind element = Kind.of(elementType);
          Set<?> set = Scalars.cast(Set.class, value, type);
          List<AttributeValue> elements = elements(elementType, set);
          if (element.attribute == null || elements.isEmpty()) {
            return AttributeValue.fromL(elements);
          }
          List<String> texts = new ArrayList<>(elements.size());
          List<SdkBytes> bytes = new ArrayList<>(elements.size());
          for (AttributeValue a : elements) {
            switch (element.attribute) {
              case S -> texts.add(a.s());
              case N -> texts.add(a.n());
              default -> bytes.add(a.b());
            }
          }
          return switch (element.attribute) {
            case S -> AttributeValue.fromSs(texts);
            case N -> AttributeValue.fromNs(texts);
            default -> AttributeValue.fromBs(bytes);
          };
        }
      case MAP:
        {
          MapType map = (MapType) type;
          Kind keyKind = Kind.of(map.getKeyType());
          Map<String, AttributeValue> entries = new LinkedHashMap<>();
          Map<?, ?> values = Scalars.cast(Map.class, value, type);
          for (Map.Entry<?, ?> e : values.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
              throw new UnmappableValueException(
                  "a null map "
                      + (e.getKey() == null ? "key" : "value")
                      + " in "
                      + Kind.name(type)
                      + ": CQL collections hold no nulls");
            }
            entries.put(
                Scalars.keyText(keyKind, map.getKeyType(), e.getKey()),
                write(map.getValueType(), e.getValue()));
          }
          return AttributeValue.fromM(entries);
        }
      case TUPLE:
        {
          List<DataType> types = ((TupleType) type).getComponentTypes();
          TupleValue tuple = Scalars.cast(TupleValue.class, value, type);
          if (tuple.size() != types.size()) {
            throw new UnmappableValueException(
                "a " + Kind.name(tuple.getType()) + " where " + Kind.name(type) + " is expected");
          }
          List<AttributeValue> components = new ArrayList<>(types.size());
          for (int i = 0; i < types.size(); i++) {
            // A null's bytes, not what the codec reads of them (an empty collection for one).
            components.add(
                tuple.isNull(i)
                    ? AttributeValue.fromNul(true)
                    : write(types.get(i), tuple.get(i, codec(types.get(i)))));
          }
          return AttributeValue.fromL(components);
        }
      default:
        {
          UserDefinedType udt = (UserDefinedType) type;
          UdtValue fields = Scalars.cast(UdtValue.class, value, type);
          if (fields.size() != udt.getFieldTypes().size()) {
            throw new UnmappableValueException(
                "a " + Kind.name(fields.getType()) + " where " + Kind.name(type) + " is expected");
          }
          Map<String, AttributeValue> entries = new LinkedHashMap<>();
          for (int i = 0; i < udt.getFieldTypes().size(); i++) {
            DataType fieldType = udt.getFieldTypes().get(i);
            if (!fields.isNull(i)) {
              Object field = fields.get(i, codec(fieldType));
              entries.put(udt.getFieldNames().get(i).asInternal(), write(fieldType, field));
            }
          }
          return AttributeValue.fromM(entries);
        }
    }
  }

  private static List<AttributeValue> elements(DataType elementType, Collection<?> values) {
    List<AttributeValue> elements = new ArrayList<>(values.size());
    for (Object element : values) {
      if (element == null) {
        throw new UnmappableValueException(
            "a null element of " + Kind.name(elementType) + ": CQL collections hold no nulls");
      }
      elements.add(write(elementType, element));
    }
    return elements;
  }

  /**
   * The CQL value of an attribute for a column of this type, as the driver's codec for the type
   * decodes and encodes; null for no attribute or a NULL.
   *
   * @throws UnmappableValueException when the attribute is not a value of the type, naming what was
   *     found and what the column expects (S "abc" where a bigint column expects N)
   */
  public static Object value(DataType type, AttributeValue attribute) {
    requireMappable(type);
    if (attribute == null || attribute.type() == AttributeValue.Type.NUL) {
      return null;
    }
    return read(type, attribute, 1);
  }

  private static Object read(DataType type, AttributeValue a, int depth) {
    Kind kind = Kind.of(type);
    boolean nested = depth > 1;
    if (kind.scalar()) {
      return Scalars.value(kind, type, a, nested);
    }
    switch (kind) {
      case LIST:
        return readElements(((ListType) type).getElementType(), list(a, type, nested), depth);
      case VECTOR:
        {
          VectorType vector = (VectorType) type;
          List<AttributeValue> list = list(a, type, nested);
          if (list.size() != vector.getDimensions()) {
            throw Scalars.mismatch(
                a, type, nested, vector.getDimensions() + " elements, one per dimension");
          }
          List<Number> numbers = new ArrayList<>();
          for (Object n : readElements(vector.getElementType(), list, depth)) {
            numbers.add((Number) n);
          }
          return CqlVector.newInstance(numbers);
        }
      case SET:
        {
          DataType elementType = ((SetType) type).getElementType();
          ScalarAttributeType attribute = Kind.of(elementType).attribute;
          List<AttributeValue> elements;
          if (a.type() == AttributeValue.Type.SS && attribute == ScalarAttributeType.S) {
            elements = a.ss().stream().map(AttributeValue::fromS).toList();
          } else if (a.type() == AttributeValue.Type.NS && attribute == ScalarAttributeType.N) {
            elements = a.ns().stream().map(AttributeValue::fromN).toList();
          } else if (a.type() == AttributeValue.Type.BS && attribute == ScalarAttributeType.B) {
            elements = a.bs().stream().map(AttributeValue::fromB).toList();
          } else if (a.type() == AttributeValue.Type.L) {
            elements = a.l();
          } else {
            throw Scalars.mismatch(
                a, type, nested, (attribute == null ? "" : attribute + "S or ") + "L");
          }
          return new LinkedHashSet<>(readElements(elementType, elements, depth));
        }
      case MAP:
        {
          MapType map = (MapType) type;
          Kind keyKind = Kind.of(map.getKeyType());
          Map<Object, Object> values = new LinkedHashMap<>();
          for (Map.Entry<String, AttributeValue> e : entries(a, type, nested).entrySet()) {
            Object key = Scalars.keyValue(keyKind, map.getKeyType(), e.getKey(), type, nested);
            values.put(key, readElement(map.getValueType(), e.getValue(), depth));
          }
          return values;
        }
      case TUPLE:
        {
          TupleType tuple = (TupleType) type;
          List<DataType> types = tuple.getComponentTypes();
          List<AttributeValue> list = list(a, type, nested);
          if (list.size() != types.size()) {
            throw Scalars.mismatch(a, type, nested, types.size() + " components");
          }
          TupleValue value = tuple.newValue();
          for (int i = 0; i < types.size(); i++) {
            AttributeValue c = list.get(i);
            Object component =
                c.type() == AttributeValue.Type.NUL ? null : read(types.get(i), c, depth + 1);
            value = value.set(i, component, codec(types.get(i)));
          }
          return value;
        }
      default:
        {
          UserDefinedType udt = (UserDefinedType) type;
          UdtValue value = udt.newValue();
          for (Map.Entry<String, AttributeValue> e : entries(a, type, nested).entrySet()) {
            int i = udt.firstIndexOf(CqlIdentifier.fromInternal(e.getKey()));
            if (i < 0) {
              throw Scalars.mismatch(
                  a,
                  type,
                  nested,
                  "the fields of " + Kind.name(type) + ", not \"" + e.getKey() + "\"");
            }
            DataType fieldType = udt.getFieldTypes().get(i);
            AttributeValue f = e.getValue();
            Object field =
                f.type() == AttributeValue.Type.NUL ? null : read(fieldType, f, depth + 1);
            value = value.set(i, field, codec(fieldType));
          }
          return value;
        }
    }
  }

  private static List<Object> readElements(
      DataType elementType, List<AttributeValue> elements, int depth) {
    List<Object> values = new ArrayList<>(elements.size());
    for (AttributeValue element : elements) {
      values.add(readElement(elementType, element, depth));
    }
    return values;
  }

  private static Object readElement(DataType type, AttributeValue element, int depth) {
    if (element.type() == AttributeValue.Type.NUL) {
      throw Scalars.mismatch(element, type, true, "a value: CQL collections hold no nulls");
    }
    return read(type, element, depth + 1);
  }

  private static List<AttributeValue> list(AttributeValue a, DataType type, boolean nested) {
    if (a.type() != AttributeValue.Type.L) {
      throw Scalars.mismatch(a, type, nested, "L");
    }
    return a.l();
  }

  private static Map<String, AttributeValue> entries(
      AttributeValue a, DataType type, boolean nested) {
    if (a.type() != AttributeValue.Type.M) {
      throw Scalars.mismatch(a, type, nested, "M");
    }
    return a.m();
  }

  private static TypeCodec<Object> codec(DataType type) {
    return CodecRegistry.DEFAULT.codecFor(type);
  }

  private static void requireMappable(DataType type) {
    String reason = unmappable(type);
    if (reason != null) {
      throw new UnmappableValueException(reason);
    }
  }

  /**
   * An item's size as DynamoDB counts it towards its 400 KB limit ({@link #MAX_ITEM_BYTES}): the
   * UTF-8 length of each attribute name plus its value's size. S: its UTF-8 bytes; N: one byte per
   * two significant digits, plus one; B: its bytes; BOOL and NULL: 1; L and M: 3 plus their
   * elements (and the UTF-8 names of M's); SS, NS and BS: the sum of their elements.
   */
  public static int itemSize(Map<String, AttributeValue> item) {
    return (int) Math.min(ItemSize.of(item), Integer.MAX_VALUE);
  }
}
