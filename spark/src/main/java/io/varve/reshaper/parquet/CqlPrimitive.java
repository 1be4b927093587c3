package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;

/** The CQL types that hold no other type, for switching on a {@link DataType}. */
enum CqlPrimitive {
  ASCII(DataTypes.ASCII),
  BIGINT(DataTypes.BIGINT),
  BLOB(DataTypes.BLOB),
  BOOLEAN(DataTypes.BOOLEAN),
  COUNTER(DataTypes.COUNTER),
  DATE(DataTypes.DATE),
  DECIMAL(DataTypes.DECIMAL),
  DOUBLE(DataTypes.DOUBLE),
  DURATION(DataTypes.DURATION),
  FLOAT(DataTypes.FLOAT),
  INET(DataTypes.INET),
  INT(DataTypes.INT),
  SMALLINT(DataTypes.SMALLINT),
  TEXT(DataTypes.TEXT),
  TIME(DataTypes.TIME),
  TIMESTAMP(DataTypes.TIMESTAMP),
  TIMEUUID(DataTypes.TIMEUUID),
  TINYINT(DataTypes.TINYINT),
  UUID(DataTypes.UUID),
  VARINT(DataTypes.VARINT);

  private final DataType type;

  CqlPrimitive(DataType type) {
    this.type = type;
  }

  /** The one {@code type} is, or null for a collection, tuple, user-defined or custom type. */
  static CqlPrimitive of(DataType type) {
    for (CqlPrimitive primitive : values()) {
      if (primitive.type.equals(type)) {
        return primitive;
      }
    }
    return null;
  }
}
