package io.varve.reshaper.datasource.timeseries;

import io.varve.format.SliceTable;
import io.varve.reshaper.config.ConfigException;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The rows of {@code varve-timeseries}: one per event item, the columns a reader gets and a writer
 * must give, by name. docs/spark-data-sources.md documents them; they do not change.
 */
final class EventColumns {

  static final String TIME_SERIES_ID = "time_series_id";
  static final String EVENT_TIME = "event_time";
  static final String EVENT_ID = "event_id";
  static final String ITEM_KEY = "item_key";
  static final String ITEM_VALUE = "item_value";

  static final StructType SCHEMA =
      new StructType()
          .add(TIME_SERIES_ID, DataTypes.StringType, false)
          .add(EVENT_TIME, DataTypes.TimestampType, false)
          .add(EVENT_ID, DataTypes.StringType, false)
          .add(ITEM_KEY, DataTypes.BinaryType, false)
          .add(ITEM_VALUE, DataTypes.BinaryType, false);

  /**
   * The select of an item row's columns, in {@link #SCHEMA}'s order, then what decodes the value.
   */
  static final String SELECTED =
      SliceTable.TIME_SERIES_ID
          + ", "
          + SliceTable.EVENT_TIME
          + ", "
          + SliceTable.EVENT_ID
          + ", "
          + SliceTable.ITEM_COLUMNS;

  private EventColumns() {}

  /**
   * Checks a DataFrame's columns against {@link #SCHEMA}: each by name, of its type, none missing,
   * none more.
   *
   * @throws ConfigException naming the first column that differs
   */
  static void check(StructType given) {
    for (StructField expected : SCHEMA.fields()) {
      StructField field = find(given, expected.name());
      if (field == null) {
        throw new ConfigException(
            expected.name(),
            "missing",
            "a column "
                + expected.name()
                + " of type "
                + expected.dataType().simpleString()
                + "; varve-timeseries writes the columns "
                + names(SCHEMA));
      }
      if (!field.dataType().equals(expected.dataType())) {
        throw new ConfigException(
            expected.name(),
            "a column of type " + field.dataType().simpleString(),
            expected.dataType().simpleString());
      }
    }
    for (StructField field : given.fields()) {
      if (find(SCHEMA, field.name()) == null) {
        throw new ConfigException(
            field.name(),
            "a column varve-timeseries does not have",
            "only " + names(SCHEMA) + "; select them before writing");
      }
    }
  }

  private static StructField find(StructType type, String name) {
    for (StructField f : type.fields()) {
      if (f.name().equalsIgnoreCase(name)) {
        return f;
      }
    }
    return null;
  }

  static String names(StructType type) {
    return String.join(", ", type.fieldNames());
  }

  static DataType typeOf(String name) {
    return SCHEMA.apply(name).dataType();
  }
}
