package io.varve.reshaper.datasource.kv;

import io.varve.reshaper.config.ConfigException;
import java.io.Serializable;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of {@code varve-kv}: one per item, the columns a reader gets and a writer gives, by
 * name. A writer must give {@code id}, {@code key} and {@code value}; {@code generation_time} is
 * optional. docs/spark-data-sources.md documents them; they do not change.
 */
final class ItemColumns {

  static final String ID = "id";
  static final String KEY = "key";
  static final String VALUE = "value";
  static final String GENERATION_TIME = "generation_time";

  static final StructType SCHEMA =
      new StructType()
          .add(ID, DataTypes.StringType, false)
          .add(KEY, DataTypes.BinaryType, false)
          .add(VALUE, DataTypes.BinaryType, false)
          .add(GENERATION_TIME, DataTypes.TimestampType, false);

  /**
   * Where each column is in a written DataFrame's rows.
   *
   * @param generationTime -1 when the DataFrame has no {@code generation_time}
   */
  record Positions(int id, int key, int value, int generationTime) implements Serializable {}

  private ItemColumns() {}

  /**
   * Checks a written DataFrame's columns: {@code id}, {@code key} and {@code value} present, each
   * of its type, {@code generation_time} a timestamp when present, no other column.
   *
   * @throws ConfigException naming the first column that differs
   */
  static Positions check(StructType given) {
    int[] at = new int[SCHEMA.size()];
    for (int i = 0; i < SCHEMA.size(); i++) {
      StructField expected = SCHEMA.fields()[i];
      at[i] = find(given, expected.name());
      if (at[i] < 0) {
        if (expected.name().equals(GENERATION_TIME)) {
          continue;
        }
        throw new ConfigException(
            expected.name(),
            "missing",
            "a column "
                + expected.name()
                + " of type "
                + expected.dataType().simpleString()
                + "; varve-kv writes the columns id, key, value and, optionally, generation_time");
      }
      StructField field = given.fields()[at[i]];
      if (!field.dataType().equals(expected.dataType())) {
        throw new ConfigException(
            expected.name(),
            "a column of type " + field.dataType().simpleString(),
            expected.dataType().simpleString());
      }
    }
    for (StructField field : given.fields()) {
      if (find(SCHEMA, field.name()) < 0) {
        throw new ConfigException(
            field.name(),
            "a column varve-kv does not have",
            "only " + String.join(", ", SCHEMA.fieldNames()) + "; select them before writing");
      }
    }
    return new Positions(at[0], at[1], at[2], at[3]);
  }

  private static int find(StructType type, String name) {
    for (int i = 0; i < type.size(); i++) {
      if (type.fields()[i].name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }
}
