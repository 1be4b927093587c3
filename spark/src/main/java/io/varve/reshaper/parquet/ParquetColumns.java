package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * How CQL columns are written to Parquet files and read back from them.
 *
 * <p>Every column is an {@code optional} field of a message named {@value #MESSAGE}, named as the
 * column; a null value is an absent field. The values are the Java objects the driver's {@code
 * CodecRegistry.DEFAULT} decodes. Each CQL type is written as below; "reads" lists the Parquet
 * fields whose values can fill a column of that type (files written by Spark, pyarrow and others).
 * A value that cannot be converted (out of range, unparseable, …) is refused on its own, with the
 * field and the value named.
 *
 * <ul>
 *   <li>{@code boolean}: {@code BOOLEAN}. Reads {@code BOOLEAN}.
 *   <li>{@code tinyint}, {@code smallint}: {@code INT32} annotated {@code INT(8,true)}, {@code
 *       INT(16,true)}; {@code int}: {@code INT32}; {@code bigint}, {@code counter}: {@code INT64}.
 *       Reads any {@code INT32} or {@code INT64}, plain or annotated as a signed integer, whose
 *       value is in the column's range.
 *   <li>{@code varint}: {@code BINARY} {@code STRING}, the number in decimal. Reads {@code STRING},
 *       {@code INT32}, {@code INT64}, and {@code DECIMAL} of scale 0.
 *   <li>{@code decimal}: {@code BINARY} {@code STRING}, as {@code BigDecimal.toString()} (its scale
 *       kept: {@code 3.50} stays {@code 3.50}). Reads {@code STRING}, {@code DECIMAL(p,s)} on
 *       {@code INT32}, {@code INT64}, {@code BINARY} or {@code FIXED_LEN_BYTE_ARRAY}, {@code INT32}
 *       and {@code INT64}.
 *   <li>{@code float}: {@code FLOAT}; {@code double}: {@code DOUBLE}. A {@code double} column also
 *       reads {@code FLOAT}.
 *   <li>{@code ascii}, {@code text}: {@code BINARY} {@code STRING}. Reads {@code BINARY} annotated
 *       {@code STRING}, {@code ENUM} or {@code JSON}; invalid UTF-8, and in an {@code ascii} column
 *       any character beyond ASCII, are refused.
 *   <li>{@code blob}: {@code BINARY}, not annotated. Reads {@code BINARY} and {@code
 *       FIXED_LEN_BYTE_ARRAY}, whatever their annotation.
 *   <li>{@code timestamp}: {@code INT64} {@code TIMESTAMP(MILLIS,true)}. Reads {@code TIMESTAMP} in
 *       milliseconds, microseconds or nanoseconds (one that is not adjusted to UTC is read as UTC),
 *       and {@code INT96} (Spark's and Impala's legacy timestamps). A CQL timestamp holds
 *       milliseconds: a value that is not a whole millisecond is refused.
 *   <li>{@code date}: {@code INT32} {@code DATE}. Reads {@code DATE}.
 *   <li>{@code time}: {@code INT64}, not annotated, the nanoseconds since midnight (CQL's own
 *       integer form of a time: Spark 3.5 refuses to read a file that has a Parquet {@code TIME}
 *       field). Reads that, and {@code TIME} in milliseconds ({@code INT32}), microseconds or
 *       nanoseconds; a value outside the day is refused.
 *   <li>{@code uuid}, {@code timeuuid}: {@code BINARY} {@code STRING}, the canonical text (Spark
 *       3.5 cannot read Parquet's {@code UUID}). Reads {@code STRING} and {@code
 *       FIXED_LEN_BYTE_ARRAY(16)} {@code UUID}; a {@code timeuuid} column refuses a UUID that is
 *       not of version 1.
 *   <li>{@code inet}: {@code BINARY} {@code STRING}, the address's literal ({@code 127.0.0.1},
 *       {@code ::1}). Reads {@code STRING} holding an IPv4 or IPv6 literal; a host name is refused,
 *       never looked up.
 *   <li>{@code duration}: {@code BINARY} {@code STRING}, as CQL writes it ({@code 1mo2d3h4m5s}; a
 *       zero duration as {@code 0s}). Reads {@code STRING} in any form CQL accepts.
 *   <li>{@code list<T>}, {@code set<T>} (frozen or not): the standard three-level {@code LIST}:
 *       {@code optional group c (LIST) { repeated group list { optional T element; } }}. Reads that
 *       and the legacy forms of the Parquet specification (a repeated field that is the element
 *       itself, such as {@code repeated int32 array}, or a repeated group of several fields or
 *       named {@code array} or {@code <c>_tuple} that is the element), as well as a repeated field
 *       outside any {@code LIST} group. A null element is refused (CQL collections hold none); a
 *       set keeps one of equal elements.
 *   <li>{@code vector<T, n>}: as {@code list<T>}. Reads as a list, and refuses a value that does
 *       not hold n elements.
 *   <li>{@code map<K, V>}: the standard {@code MAP}: {@code optional group c (MAP) { repeated group
 *       key_value { required K key; optional V value; } }}. Reads that and {@code MAP_KEY_VALUE}
 *       groups (fields named {@code key} and {@code value}, else the first two); a null value is
 *       refused.
 *   <li>{@code tuple<...>}: a group of optional fields {@code _1}, {@code _2}, ... Reads any group,
 *       not annotated, of as many fields, in order.
 *   <li>user-defined types: a group of optional fields named as the type's fields. Reads a group
 *       whose fields each name a field of the type; the type's other fields are null.
 *   <li>Custom types have no Parquet form.
 * </ul>
 *
 * <p>Nested types follow the same rules.
 */
public final class ParquetColumns {

  /** The name of the message every schema of {@link #schema} has. */
  public static final String MESSAGE = "varve";

  private ParquetColumns() {}

  /**
   * The optional Parquet field a column named {@code name} of CQL type {@code type} is written as.
   *
   * @throws IllegalArgumentException for a custom type, which has no Parquet form
   */
  public static Type field(String name, DataType type) {
    return field(name, type, Repetition.OPTIONAL);
  }

  /**
   * The schema, a message named {@value #MESSAGE}, of the columns {@code names} of {@code types}.
   */
  public static MessageType schema(List<String> names, List<DataType> types) {
    if (names.size() != types.size()) {
      throw new IllegalArgumentException(
          names.size() + " column names for " + types.size() + " column types");
    }
    Types.MessageTypeBuilder message = Types.buildMessage();
    for (int i = 0; i < names.size(); i++) {
      message.addField(field(names.get(i), types.get(i)));
    }
    return message.named(MESSAGE);
  }

  /**
   * Whether the values of the Parquet field {@code field} can fill a column of CQL type {@code
   * type}: null when they can, else the reason, naming both (for example {@code "INT64
   * TIMESTAMP(MICROS,true) does not fit a text column"}). Single values can still be refused by
   * {@link #read}.
   */
  public static String fits(Type field, DataType type) {
    return ColumnReaders.misfit(field, type);
  }

  /**
   * The CQL value of type {@code type} that field {@code fieldIndex} of {@code group} holds, or
   * null when the record does not hold the field.
   *
   * @throws IllegalArgumentException when the field does not {@link #fits fit} the type, or its
   *     value cannot be converted to it (the message names the field and the value)
   */
  public static Object read(Group group, int fieldIndex, DataType type) {
    return ColumnReaders.reader(group.getType().getType(fieldIndex), type)
        .read(group, fieldIndex, group.getType().getFieldName(fieldIndex));
  }

  static Type field(String name, DataType type, Repetition repetition) {
    if (type instanceof VectorType) {
      return list(name, ((VectorType) type).getElementType(), repetition);
    }
    if (type instanceof ListType) {
      return list(name, ((ListType) type).getElementType(), repetition);
    }
    if (type instanceof SetType) {
      return list(name, ((SetType) type).getElementType(), repetition);
    }
    if (type instanceof MapType) {
      MapType map = (MapType) type;
      GroupType entry =
          Types.repeatedGroup()
              .addField(field("key", map.getKeyType(), Repetition.REQUIRED))
              .addField(field("value", map.getValueType(), Repetition.OPTIONAL))
              .named("key_value");
      return Types.buildGroup(repetition)
          .as(LogicalTypeAnnotation.mapType())
          .addField(entry)
          .named(name);
    }
    if (type instanceof TupleType) {
      List<DataType> components = ((TupleType) type).getComponentTypes();
      Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
      for (int i = 0; i < components.size(); i++) {
        group.addField(field("_" + (i + 1), components.get(i), Repetition.OPTIONAL));
      }
      return group.named(name);
    }
    if (type instanceof UserDefinedType) {
      UserDefinedType udt = (UserDefinedType) type;
      List<CqlIdentifier> names = udt.getFieldNames();
      Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
      for (int i = 0; i < names.size(); i++) {
        group.addField(
            field(names.get(i).asInternal(), udt.getFieldTypes().get(i), Repetition.OPTIONAL));
      }
      return group.named(name);
    }
    return primitive(name, type, repetition);
  }

  private static Type list(String name, DataType element, Repetition repetition) {
    GroupType list =
        Types.repeatedGroup()
            .addField(field("element", element, Repetition.OPTIONAL))
            .named("list");
    return Types.buildGroup(repetition)
        .as(LogicalTypeAnnotation.listType())
        .addField(list)
        .named(name);
  }

  private static Type primitive(String name, DataType type, Repetition repetition) {
    CqlPrimitive primitive = CqlPrimitive.of(type);
    if (primitive == null) {
      throw new IllegalArgumentException(
          "column " + name + ": " + type.asCql(true, true) + " has no Parquet form");
    }
    switch (primitive) {
      case BOOLEAN:
        return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
      case TINYINT:
        return Types.primitive(PrimitiveTypeName.INT32, repetition)
            .as(LogicalTypeAnnotation.intType(8, true))
            .named(name);
      case SMALLINT:
        return Types.primitive(PrimitiveTypeName.INT32, repetition)
            .as(LogicalTypeAnnotation.intType(16, true))
            .named(name);
      case INT:
        return Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
      case BIGINT:
      case COUNTER:
      case TIME:
        return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
      case FLOAT:
        return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
      case DOUBLE:
        return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
      case BLOB:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
      case TIMESTAMP:
        return Types.primitive(PrimitiveTypeName.INT64, repetition)
            .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MILLIS))
            .named(name);
      case DATE:
        return Types.primitive(PrimitiveTypeName.INT32, repetition)
            .as(LogicalTypeAnnotation.dateType())
            .named(name);
      // varint, decimal, ascii, text, uuid, timeuuid, inet, duration: their text.
      default:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition)
            .as(LogicalTypeAnnotation.stringType())
            .named(name);
    }
  }
}
