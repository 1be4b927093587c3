package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** What a CQL type is for the DynamoDB mapping: one constant per mapped type, then NONE. */
enum Kind {
  ASCII(DataTypes.ASCII, ScalarAttributeType.S),
  TEXT(DataTypes.TEXT, ScalarAttributeType.S),
  TINYINT(DataTypes.TINYINT, ScalarAttributeType.N),
  SMALLINT(DataTypes.SMALLINT, ScalarAttributeType.N),
  INT(DataTypes.INT, ScalarAttributeType.N),
  BIGINT(DataTypes.BIGINT, ScalarAttributeType.N),
  COUNTER(DataTypes.COUNTER, ScalarAttributeType.N),
  VARINT(DataTypes.VARINT, ScalarAttributeType.N),
  FLOAT(DataTypes.FLOAT, ScalarAttributeType.N),
  DOUBLE(DataTypes.DOUBLE, ScalarAttributeType.N),
  DECIMAL(DataTypes.DECIMAL, ScalarAttributeType.N),
  BOOLEAN(DataTypes.BOOLEAN, null),
  BLOB(DataTypes.BLOB, ScalarAttributeType.B),
  TIMESTAMP(DataTypes.TIMESTAMP, ScalarAttributeType.S),
  DATE(DataTypes.DATE, ScalarAttributeType.S),
  TIME(DataTypes.TIME, ScalarAttributeType.S),
  DURATION(DataTypes.DURATION, ScalarAttributeType.S),
  UUID(DataTypes.UUID, ScalarAttributeType.S),
  TIMEUUID(DataTypes.TIMEUUID, ScalarAttributeType.S),
  INET(DataTypes.INET, ScalarAttributeType.S),
  LIST(null, null),
  SET(null, null),
  MAP(null, null),
  TUPLE(null, null),
  UDT(null, null),
  VECTOR(null, null),
  NONE(null, null);

  /** The deepest nesting of documents (L and M, here also sets) DynamoDB keeps. */
  static final int MAX_DEPTH = 32;

  private static final Map<DataType, Kind> PRIMITIVES = new HashMap<>();

  static {
    for (Kind kind : values()) {
      if (kind.type != null) {
        PRIMITIVES.put(kind.type, kind);
      }
    }
  }

  private final DataType type;

  /** S, N or B: the attribute a value of this type is (and a key of it); null when not a scalar. */
  final ScalarAttributeType attribute;

  Kind(DataType type, ScalarAttributeType attribute) {
    this.type = type;
    this.attribute = attribute;
  }

  /** Whether a value of this type is one attribute of its own, not made of others. */
  boolean scalar() {
    return type != null;
  }

  static Kind of(DataType type) {
    // A vector is a custom type to the driver: asked first.
    if (type instanceof VectorType) {
      return VECTOR;
    } else if (type instanceof ListType) {
      return LIST;
    } else if (type instanceof SetType) {
      return SET;
    } else if (type instanceof MapType) {
      return MAP;
    } else if (type instanceof TupleType) {
      return TUPLE;
    } else if (type instanceof UserDefinedType) {
      return UDT;
    }
    return PRIMITIVES.getOrDefault(type, NONE);
  }

  /** The type as CQL writes it (a vector too, which the driver names by its Cassandra class). */
  static String name(DataType type) {
    if (type instanceof VectorType vector) {
      return "vector<" + name(vector.getElementType()) + ", " + vector.getDimensions() + ">";
    }
    return type.asCql(false, true);
  }

  /** Why a type nested depth levels deep (1: a column's own) has no attribute; else null. */
  static String unmappable(DataType type, int depth) {
    Kind kind = Kind.of(type);
    if (kind.scalar()) {
      return null;
    } else if (kind == Kind.NONE) {
      return (type.getProtocolCode() == 0 ? "custom type " : "type ")
          + Kind.name(type)
          + " has no DynamoDB form";
    } else if (depth > MAX_DEPTH) {
      return "a type nested " + depth + " levels deep: DynamoDB nests at most " + MAX_DEPTH;
    }
    List<DataType> inner =
        switch (kind) {
          case LIST -> List.of(((ListType) type).getElementType());
          case SET -> List.of(((SetType) type).getElementType());
          case MAP -> List.of(((MapType) type).getValueType());
          case TUPLE -> ((TupleType) type).getComponentTypes();
          case UDT -> ((UserDefinedType) type).getFieldTypes();
          default -> List.of();
        };
    if (kind == Kind.MAP && !Kind.of(((MapType) type).getKeyType()).scalar()) {
      return "map keys of type "
          + Kind.name(((MapType) type).getKeyType())
          + " have no DynamoDB form (M names are texts)";
    } else if (kind == Kind.VECTOR) {
      DataType element = ((VectorType) type).getElementType();
      if (Kind.of(element).attribute != ScalarAttributeType.N) {
        return "a vector of " + Kind.name(element) + " has no DynamoDB form";
      }
    }
    for (DataType t : inner) {
      String reason = unmappable(t, depth + 1);
      if (reason != null) {
        return reason;
      }
    }
    return null;
  }
}
