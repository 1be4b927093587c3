package io.varve.format;

import java.util.List;

/**
 * A slice table's shape: one row per event item, partition key {@code (time_series_id, time_bucket,
 * event_bucket)}, clustering {@code (event_time DESC, event_id ASC, event_item_key ASC)}, and the
 * item's {@code event_item_value} beside its {@code value_metadata} ({@link ValueCodec}). The
 * server's event store creates, writes and reads slice tables by these names, and so do the Spark
 * data sources and the reshaper's slice transform; the placement of an event in its slice, time
 * bucket and event bucket is core's ({@code WritePlanner}, {@code TimeSlice}, {@code
 * EventBuckets}).
 */
public final class SliceTable {

  public static final String TIME_SERIES_ID = "time_series_id";
  public static final String TIME_BUCKET = "time_bucket";
  public static final String EVENT_BUCKET = "event_bucket";
  public static final String EVENT_TIME = "event_time";
  public static final String EVENT_ID = "event_id";
  public static final String EVENT_ITEM_KEY = "event_item_key";
  public static final String EVENT_ITEM_VALUE = "event_item_value";
  public static final String VALUE_METADATA = "value_metadata";

  /** The partition key, in order. */
  public static final List<String> PARTITION_KEY =
      List.of(TIME_SERIES_ID, TIME_BUCKET, EVENT_BUCKET);

  /** The clustering columns, in order: {@code event_time} descending, the others ascending. */
  public static final List<String> CLUSTERING = List.of(EVENT_TIME, EVENT_ID, EVENT_ITEM_KEY);

  /** Every column, in the order of {@link #insertInto}'s markers. */
  public static final List<String> COLUMNS =
      List.of(
          TIME_SERIES_ID,
          TIME_BUCKET,
          EVENT_BUCKET,
          EVENT_TIME,
          EVENT_ID,
          EVENT_ITEM_KEY,
          EVENT_ITEM_VALUE,
          VALUE_METADATA);

  /**
   * Selected after {@code value_metadata} by every read of item rows: the write timestamps that
   * tell a stale marker from a current one ({@link ValueCodec#decode}).
   */
  public static final String ITEM_WRITETIMES =
      "WRITETIME(" + EVENT_ITEM_VALUE + "), WRITETIME(" + VALUE_METADATA + ")";

  /**
   * The columns an item's reader selects from {@code event_item_key} on: key, value, marker and the
   * two write timestamps.
   */
  public static final String ITEM_COLUMNS =
      EVENT_ITEM_KEY + ", " + EVENT_ITEM_VALUE + ", " + VALUE_METADATA + ", " + ITEM_WRITETIMES;

  private SliceTable() {}

  /**
   * The insert of one item row into {@code qualifiedTable} (a keyspace and table already quoted as
   * CQL identifiers), with a marker for each of {@link #COLUMNS} in order.
   */
  public static String insertInto(String qualifiedTable) {
    return "INSERT INTO "
        + qualifiedTable
        + " ("
        + String.join(", ", COLUMNS)
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  }
}
