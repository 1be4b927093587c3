package io.varve.reshaper.plan;

import static io.varve.reshaper.plan.TableSchema.names;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.TableSchema.Column;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The {@code timeSlice} transform: the target's {@code time_bucket} and {@code event_bucket} of a
 * slice table, computed for each row by core's functions of the storage format ({@link
 * TimeSlice#timeBucketOf}, {@link EventBuckets#of}) for the target's settings, from the row's
 * {@code time_series_id}, {@code event_time} and {@code event_id}, which are copied as they are.
 * Those three and {@code event_item_key} stay in the target's primary key, so no two rows meet and
 * the copy is row for row ({@link CopyMode#DIRECT}).
 *
 * <p>{@link #check} refuses a job the transform does not fit, before the other steps of the plan;
 * {@link #of} places the computed columns in the target layout. Serializable: part of the {@link
 * MigrationPlan} that travels to executors.
 *
 * @param start the slice's start: the origin of the grid of time buckets
 * @param end the slice's end (excluded)
 * @param secondsPerTimeBucket the target's time buckets
 * @param eventBuckets the target's event buckets per time bucket
 * @param seriesColumn the target column index of {@code time_series_id}
 * @param eventTimeColumn of {@code event_time}
 * @param eventIdColumn of {@code event_id}
 * @param timeBucketColumn of {@code time_bucket}, computed
 * @param eventBucketColumn of {@code event_bucket}, computed
 */
public record SliceKeys(
    Instant start,
    Instant end,
    long secondsPerTimeBucket,
    int eventBuckets,
    int seriesColumn,
    int eventTimeColumn,
    int eventIdColumn,
    int timeBucketColumn,
    int eventBucketColumn)
    implements Serializable {

  static final CqlIdentifier TIME_SERIES_ID = CqlIdentifier.fromInternal("time_series_id");
  static final CqlIdentifier TIME_BUCKET = CqlIdentifier.fromInternal("time_bucket");
  static final CqlIdentifier EVENT_BUCKET = CqlIdentifier.fromInternal("event_bucket");
  static final CqlIdentifier EVENT_TIME = CqlIdentifier.fromInternal("event_time");
  static final CqlIdentifier EVENT_ID = CqlIdentifier.fromInternal("event_id");
  static final CqlIdentifier EVENT_ITEM_KEY = CqlIdentifier.fromInternal("event_item_key");
  static final CqlIdentifier EVENT_ITEM_VALUE = CqlIdentifier.fromInternal("event_item_value");
  static final CqlIdentifier VALUE_METADATA = CqlIdentifier.fromInternal("value_metadata");

  /** A slice table's partition key, as the event store creates it. */
  private static final List<Column> PARTITION_KEY =
      List.of(
          new Column(TIME_SERIES_ID, DataTypes.TEXT),
          new Column(TIME_BUCKET, DataTypes.TIMESTAMP),
          new Column(EVENT_BUCKET, DataTypes.INT));

  /** Its clustering columns. */
  private static final List<Column> CLUSTERING =
      List.of(
          new Column(EVENT_TIME, DataTypes.TIMESTAMP),
          new Column(EVENT_ID, DataTypes.TEXT),
          new Column(EVENT_ITEM_KEY, DataTypes.BLOB));

  /** Its other columns. */
  private static final List<Column> VALUES =
      List.of(
          new Column(EVENT_ITEM_VALUE, DataTypes.BLOB), new Column(VALUE_METADATA, DataTypes.TEXT));

  /** The target columns computed per row. */
  static final Set<CqlIdentifier> COMPUTED = Set.of(TIME_BUCKET, EVENT_BUCKET);

  private static final String WHY =
      "with timeSlice the slice table's columns are copied as they are, time_bucket and"
          + " event_bucket computed";

  /** The target columns a job computes: {@link #COMPUTED} with a timeSlice section, else none. */
  static Set<CqlIdentifier> computed(JobConfig config) {
    return config.timeSlice() == null ? Set.of() : COMPUTED;
  }

  /**
   * Refuses a job with a timeSlice section unless both tables are slice tables, the slice's columns
   * are neither renamed, dropped nor set by constants, no reshape rule is given (nothing collides)
   * and timestamps are preserved. Does nothing without the section.
   */
  static void check(JobConfig config, TableSchema source, TableSchema target) {
    if (config.timeSlice() == null) {
      return;
    }
    isSliceTable("source", config.source().qualifiedTable(), source);
    isSliceTable("target", config.target().qualifiedTable(), target);
    for (int i = 0; i < config.renames().size(); i++) {
      JobConfig.Rename r = config.renames().get(i);
      notSliceColumn("renames[" + i + "].from", r.from(), r.from());
      notSliceColumn("renames[" + i + "].to", r.to(), r.to());
    }
    for (int i = 0; i < config.drop().size(); i++) {
      notSliceColumn("drop[" + i + "]", config.drop().get(i), config.drop().get(i));
    }
    config
        .constants()
        .forEach((name, literal) -> notSliceColumn("constants." + name, name, literal));
    if (config.reshape().onConflict() != null) {
      throw new ConfigException(
          "reshape.onConflict",
          config.reshape().onConflict(),
          "none with timeSlice: every row keeps its identity (time_series_id, event_time,"
              + " event_id, event_item_key) and its buckets are computed from it, so no two rows"
              + " land on one target row");
    }
    if (!config.source().preserveTimestamps()) {
      throw new ConfigException(
          "source.preserveTimestamps",
          false,
          "true with timeSlice: a slice's cells keep their writetimes and TTLs (readers tell a"
              + " stale value_metadata by its older writetime)");
    }
  }

  /** Places the computed columns of a checked job in {@code layout}; null without timeSlice. */
  static SliceKeys of(JobConfig config, TargetLayout layout) {
    JobConfig.TimeSlice slice = config.timeSlice();
    if (slice == null) {
      return null;
    }
    return new SliceKeys(
        slice.start(),
        slice.end(),
        slice.secondsPerTimeBucket(),
        slice.eventBuckets(),
        layout.indexOf(TIME_SERIES_ID),
        layout.indexOf(EVENT_TIME),
        layout.indexOf(EVENT_ID),
        layout.indexOf(TIME_BUCKET),
        layout.indexOf(EVENT_BUCKET));
  }

  /**
   * Sets {@code time_bucket} and {@code event_bucket} of a target row's encoded values from its
   * copied {@code time_series_id}, {@code event_time} and {@code event_id}.
   *
   * @return null, or why the row is not of the slice (its {@code event_time} is outside [start,
   *     end)); its buckets are set either way, by the same functions
   */
  public String fill(byte[][] values) {
    TimeSlice slice = timeSlice();
    long eventTime = decode(TypeCodecs.TIMESTAMP, values[eventTimeColumn]).toEpochMilli();
    String series = decode(TypeCodecs.TEXT, values[seriesColumn]);
    String eventId = decode(TypeCodecs.TEXT, values[eventIdColumn]);
    values[timeBucketColumn] =
        encode(TypeCodecs.TIMESTAMP, Instant.ofEpochMilli(slice.timeBucketOf(eventTime)));
    values[eventBucketColumn] =
        encode(TypeCodecs.INT, EventBuckets.of(series, eventTime, eventId, eventBuckets));
    if (slice.contains(eventTime)) {
      return null;
    }
    return "event_time "
        + Instant.ofEpochMilli(eventTime)
        + " is outside the slice ["
        + start
        + ", "
        + end
        + ") of timeSlice";
  }

  /** The transform in words, for the plan line and the savepoint's fingerprint. */
  public String describe() {
    return "timeSlice ["
        + start
        + ", "
        + end
        + "), time buckets of "
        + secondsPerTimeBucket
        + " s, "
        + eventBuckets
        + " event buckets";
  }

  /** Core's slice of these settings; its table and namespace are not used. */
  private TimeSlice timeSlice() {
    return new TimeSlice(
        "", start, end, "", secondsPerTimeBucket, eventBuckets, SliceStatus.CLOSED);
  }

  private static void isSliceTable(String side, String table, TableSchema schema) {
    for (Column expected : PARTITION_KEY) {
      column(side, table, schema, expected, "its partition key");
    }
    for (Column expected : CLUSTERING) {
      column(side, table, schema, expected, "its clustering columns");
    }
    for (Column expected : VALUES) {
      column(side, table, schema, expected, "a regular column");
    }
    if (!names(schema.partitionKey()).equals(names(PARTITION_KEY))
        || !names(schema.clustering()).equals(names(CLUSTERING))) {
      throw new ConfigException(
          "timeSlice",
          side + " table " + table + " has primary key " + primaryKey(schema),
          "a slice table's, " + primaryKey(PARTITION_KEY, CLUSTERING));
    }
  }

  private static void column(
      String side, String table, TableSchema schema, Column expected, String where) {
    Column actual =
        schema
            .column(expected.name())
            .orElseThrow(
                () ->
                    new ConfigException(
                        "timeSlice",
                        side + " table " + table + " has no column " + expected.cql(),
                        "a slice table, with "
                            + expected.cql()
                            + " "
                            + cql(expected.type())
                            + " in "
                            + where
                            + "; its primary key is "
                            + primaryKey(PARTITION_KEY, CLUSTERING)
                            + ", its other columns "
                            + names(VALUES)));
    if (!actual.type().equals(expected.type())) {
      throw new ConfigException(
          "timeSlice",
          side + " table " + table + " column " + expected.cql() + " is " + cql(actual.type()),
          expected.cql() + " " + cql(expected.type()) + ", as in a slice table");
    }
  }

  private static void notSliceColumn(String key, String name, String shown) {
    CqlIdentifier id = CqlIdentifier.fromCql(name);
    boolean slice =
        PARTITION_KEY.stream().anyMatch(c -> c.name().equals(id))
            || CLUSTERING.stream().anyMatch(c -> c.name().equals(id))
            || VALUES.stream().anyMatch(c -> c.name().equals(id));
    if (slice) {
      throw new ConfigException(key, shown, "a column that is not a slice table's: " + WHY);
    }
  }

  private static String primaryKey(TableSchema schema) {
    return primaryKey(schema.partitionKey(), schema.clustering());
  }

  private static String primaryKey(List<Column> partition, List<Column> clustering) {
    return "(("
        + names(partition)
        + ")"
        + (clustering.isEmpty() ? "" : ", ")
        + names(clustering)
        + ")";
  }

  private static String cql(DataType type) {
    return type.asCql(true, true);
  }

  private static <T> T decode(TypeCodec<T> codec, byte[] value) {
    return codec.decode(ByteBuffer.wrap(value), ProtocolVersion.DEFAULT);
  }

  private static <T> byte[] encode(TypeCodec<T> codec, T value) {
    ByteBuffer bytes = codec.encode(value, ProtocolVersion.DEFAULT);
    byte[] out = new byte[bytes.remaining()];
    bytes.duplicate().get(out);
    return out;
  }
}
