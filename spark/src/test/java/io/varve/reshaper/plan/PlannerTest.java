package io.varve.reshaper.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfigLoader;
import io.varve.reshaper.plan.TableSchema.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The planner, table-driven: schemas and job keys in, a plan or a refusal naming the key out. */
class PlannerTest {
  private static final String HISTORY =
      "partnerid text, date timestamp, id text | (partnerid), date, id";
  private static final String COMPACT =
      "partnerid text, id text, seen_date timestamp | (partnerid), id";
  private static final String RENAME_DATE = "renames: [{from: date, to: seen_date}]\n";
  private static final String TOKEN_RANGE = " WHERE token(partnerid) > ? AND token(partnerid) <= ?";
  private static final String SLICE_COLUMNS =
      "time_series_id text, time_bucket timestamp, event_bucket int, event_time timestamp,"
          + " event_id text, event_item_key blob, event_item_value blob, value_metadata text";
  private static final String SLICE_KEY =
      " | (time_series_id, time_bucket, event_bucket), event_time, event_id, event_item_key";

  /** A slice table, as the event store creates it. */
  private static final String SLICE = SLICE_COLUMNS + SLICE_KEY;

  private static final String SLICE_SOURCE = "slice_a, preserveTimestamps: true";
  private static final String TIME_SLICE =
      "timeSlice: {start: 2026-11-29T00:00:00Z, end: 2026-11-30T00:00:00Z,"
          + " secondsPerTimeBucket: 600, eventBuckets: 8}\n";
  private static final String SLICE_EXPECTED =
      "a slice table, with %s in its partition key; its primary key is ((time_series_id,"
          + " time_bucket, event_bucket), event_time, event_id, event_item_key), its other columns"
          + " event_item_value, value_metadata";
  private static final String NOT_A_SLICE_COLUMN =
      " (expected: a column that is not a slice table's: with timeSlice the slice table's columns"
          + " are copied as they are, time_bucket and event_bucket computed)";

  /**
   * A job from table {@code source} to table {@code target} of keyspace ks; {@code source} may go
   * on with more keys of the source section, e.g. {@code "cells, preserveTimestamps: true"}.
   */
  record Case(
      String name,
      String source,
      String sourceSchema,
      String target,
      String targetSchema,
      String job) {
    MigrationPlan plan() {
      String yaml =
          "source: {host: h, keyspace: ks, table: "
              + source
              + "}\n"
              + "target: {host: h, keyspace: ks, table: "
              + target
              + "}\n"
              + job;
      return new Planner(
              JobConfigLoader.parse(yaml),
              schema(source, sourceSchema),
              schema(target, targetSchema))
          .plan();
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Object[]> plans() {
    return Stream.of(
        new Object[][] {
          {
            new Case("copy under a new name", "history", HISTORY, "history_copy", HISTORY, ""),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT partnerid, date, id FROM ks.history" + TOKEN_RANGE,
            "INSERT INTO ks.history_copy (partnerid, date, id) VALUES (?, ?, ?)"
          },
          {
            new Case(
                "a new partitioning of the same key",
                "history",
                HISTORY,
                "by_id",
                "id text, partnerid text, date timestamp | (id), partnerid, date",
                ""),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT partnerid, date, id FROM ks.history" + TOKEN_RANGE,
            "INSERT INTO ks.by_id (id, partnerid, date) VALUES (?, ?, ?)"
          },
          {
            new Case(
                "the compact table keeps the latest date",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                RENAME_DATE + "reshape: {onConflict: keepMax, column: seen_date}\n"),
            CopyMode.IN_PARTITION,
            "keepMax",
            2,
            "SELECT partnerid, date, id FROM ks.history" + TOKEN_RANGE,
            "INSERT INTO ks.compact (partnerid, id, seen_date) VALUES (?, ?, ?)"
          },
          {
            new Case(
                "rows of different partitions collide",
                "history",
                HISTORY,
                "last_seen",
                "id text, partnerid text, seen_date timestamp | (id)",
                RENAME_DATE + "reshape: {onConflict: keepMin, column: seen_date}\n"),
            CopyMode.SHUFFLE,
            "keepMin",
            2,
            "SELECT partnerid, date, id FROM ks.history" + TOKEN_RANGE,
            "INSERT INTO ks.last_seen (id, partnerid, seen_date) VALUES (?, ?, ?)"
          },
          {
            new Case(
                "the newest writetime is read without keeping timestamps",
                "events",
                "p text, t int, id text, v text | (p), t, id",
                "latest",
                "p text, id text, t int, v text | (p), id",
                "reshape: {onConflict: keepNewestWritetime}\n"),
            CopyMode.IN_PARTITION,
            "keepNewestWritetime",
            -1,
            "SELECT p, t, id, v, WRITETIME(v), TTL(v) FROM ks.events WHERE token(p) > ? AND"
                + " token(p) <= ?",
            "INSERT INTO ks.latest (p, id, t, v) VALUES (?, ?, ?, ?)"
          },
          {
            new Case(
                "constants, drop and where",
                "legacy, where: \"a = 'even'\"",
                "k int, a text, old text | (k)",
                "regional",
                "region text, k int, a text | (region), k",
                "constants: {region: eu-west}\ndrop: [old]\n"),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT k, a FROM ks.legacy WHERE token(k) > ? AND token(k) <= ? AND a = 'even'"
                + " ALLOW FILTERING",
            "INSERT INTO ks.regional (region, k, a) VALUES (?, ?, ?)"
          },
          {
            new Case(
                "timestamps kept per regular column",
                "cells, preserveTimestamps: true",
                "k int, a text, b text | (k)",
                "cells_copy",
                "k int, a text, b text | (k)",
                ""),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT k, a, b, WRITETIME(a), TTL(a), WRITETIME(b), TTL(b) FROM ks.cells WHERE"
                + " token(k) > ? AND token(k) <= ?",
            "INSERT INTO ks.cells_copy (k, a, b) VALUES (?, ?, ?)"
          },
          {
            new Case(
                "a non-frozen collection written at the job's time",
                "tagged, preserveTimestamps: true",
                "k int, tags set<text> | (k)",
                "tagged_copy",
                "k int, tags set<text> | (k)",
                "timestamps: {nonFrozenCollections: currentTime}\n"),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT k, tags FROM ks.tagged WHERE token(k) > ? AND token(k) <= ?",
            "INSERT INTO ks.tagged_copy (k, tags) VALUES (?, ?)"
          },
          {
            new Case("a slice re-partitioned", SLICE_SOURCE, SLICE, "slice_b", SLICE, TIME_SLICE),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT time_series_id, time_bucket, event_bucket, event_time, event_id,"
                + " event_item_key, event_item_value, value_metadata, WRITETIME(event_item_value),"
                + " TTL(event_item_value), WRITETIME(value_metadata), TTL(value_metadata) FROM"
                + " ks.slice_a WHERE token(time_series_id, time_bucket, event_bucket) > ? AND"
                + " token(time_series_id, time_bucket, event_bucket) <= ?",
            "INSERT INTO ks.slice_b (time_series_id, time_bucket, event_bucket, event_time,"
                + " event_id, event_item_key, event_item_value, value_metadata) VALUES (?, ?, ?, ?,"
                + " ?, ?, ?, ?)"
          },
          {
            new Case(
                "a slice with a column of its own, renamed, and a where",
                "slice_a, preserveTimestamps: true, where: \"time_series_id = 'a'\"",
                SLICE_COLUMNS + ", note text" + SLICE_KEY,
                "slice_b",
                SLICE_COLUMNS + ", remark text" + SLICE_KEY,
                TIME_SLICE + "renames: [{from: note, to: remark}]\n"),
            CopyMode.DIRECT,
            null,
            -1,
            "SELECT time_series_id, time_bucket, event_bucket, event_time, event_id,"
                + " event_item_key, event_item_value, value_metadata, note,"
                + " WRITETIME(event_item_value), TTL(event_item_value), WRITETIME(value_metadata),"
                + " TTL(value_metadata), WRITETIME(note), TTL(note) FROM ks.slice_a WHERE"
                + " token(time_series_id, time_bucket, event_bucket) > ? AND token(time_series_id,"
                + " time_bucket, event_bucket) <= ? AND time_series_id = 'a' ALLOW FILTERING",
            "INSERT INTO ks.slice_b (time_series_id, time_bucket, event_bucket, event_time,"
                + " event_id, event_item_key, event_item_value, value_metadata, remark) VALUES (?,"
                + " ?, ?, ?, ?, ?, ?, ?, ?)"
          },
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("plans")
  void plans_the_scan_the_upsert_and_the_mode(
      Case job, CopyMode mode, String rule, int ruleColumn, String select, String insert) {
    MigrationPlan plan = job.plan();
    assertThat(plan.mode()).isEqualTo(mode);
    assertThat(
            plan.resolution().onConflict() == null
                ? null
                : plan.resolution().onConflict().toString())
        .isEqualTo(rule);
    assertThat(plan.resolution().ruleColumn()).isEqualTo(ruleColumn);
    assertThat(plan.source().selectCql()).isEqualTo(select);
    assertThat(plan.target().insertCql()).isEqualTo(insert);
    assertThat(plan.target().insertWithTimestampCql())
        .isEqualTo(insert + " USING TIMESTAMP ? AND TTL ?");
  }

  static Stream<Object[]> refusals() {
    String text = "partnerid text, id text, seen_date text | (partnerid), id";
    String compactRule = "reshape: {onConflict: keepMax, column: seen_date}\n";
    return Stream.of(
        new Object[][] {
          {
            new Case(
                "unknown column in renames",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                "renames: [{from: dat, to: seen_date}]\n"),
            "renames[0].from: dat (expected: a column of source table ks.history: partnerid,"
                + " date, id)"
          },
          {
            new Case(
                "rename to a column the target lacks",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                "renames: [{from: date, to: seen}]\n"),
            "renames[0].to: seen (expected: a column of target table ks.compact: partnerid, id,"
                + " seen_date)"
          },
          {
            new Case(
                "a column renamed twice",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                "renames: [{from: date, to: seen_date}, {from: date, to: id}]\n"),
            "renames[1].from: date (expected: a column renamed only once)"
          },
          {
            new Case(
                "drop of an unknown column",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                "drop: [nope]\n"),
            "drop[0]: nope (expected: a column of source table ks.history: partnerid, date, id)"
          },
          {
            new Case(
                "drop of a renamed column",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                RENAME_DATE + "drop: [date]\n"),
            "drop[0]: date (expected: a column that is not also renamed)"
          },
          {
            new Case(
                "a source column with nowhere to go", "history", HISTORY, "compact", COMPACT, ""),
            "source column date: no target column date (expected: a column of target"
                + " table ks.compact (partnerid, id, seen_date): add a renames entry, or list it"
                + " under drop)"
          },
          {
            new Case("a type mismatch", "history", HISTORY, "text_date", text, RENAME_DATE),
            "target column seen_date: text (expected: the type of source column date,"
                + " timestamp (type mismatch))"
          },
          {
            new Case(
                "two source columns for one target column",
                "pair",
                "k int, a text, b text | (k)",
                "single",
                "k int, b text | (k)",
                "renames: [{from: a, to: b}]\n"),
            "target column b: filled by source columns a and b (expected: one source column)"
          },
          {
            new Case(
                "a constant for a column already filled",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                RENAME_DATE + "constants: {id: x}\n"),
            "constants.id: x (expected: a target column that no source column fills already)"
          },
          {
            new Case(
                "a constant that is no literal of its type",
                "legacy",
                "k int, a text | (k)",
                "stamped",
                "k int, a text, at timestamp | (k)",
                "constants: {at: yesterday-ish}\n"),
            "constants.at: yesterday-ish (expected: a CQL literal of type timestamp)"
          },
          {
            new Case(
                "a target column that nothing fills",
                "history",
                HISTORY,
                "with_note",
                "partnerid text, id text, seen_date timestamp, note text | (partnerid), id",
                RENAME_DATE + compactRule),
            "target column note: no source (expected: a value: a source column of the same"
                + " name, a renames entry with to: note, or a constants entry)"
          },
          {
            new Case(
                "colliding rows without a rule",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                RENAME_DATE),
            "reshape.onConflict: missing (expected: a rule (keepMax, keepMin,"
                + " keepNewestWritetime or fail): the target primary key (partnerid, id) does"
                + " not hold every source primary-key column (partnerid, date, id), so several"
                + " source rows can land on one target row)"
          },
          {
            new Case(
                "a rule column the target lacks",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                RENAME_DATE + "reshape: {onConflict: keepMax, column: nope}\n"),
            "reshape.column: nope (expected: a column of target table ks.compact: partnerid,"
                + " id, seen_date)"
          },
          {
            new Case(
                "a rule column of an unordered type",
                "history",
                HISTORY,
                "timed",
                COMPACT.replace(" |", ", d duration |"),
                RENAME_DATE + "constants: {d: 1h}\nreshape: {onConflict: keepMax, column: d}\n"),
            "reshape.column: d (expected: a column of an ordered type (number, text, timestamp,"
                + " date, time, uuid, inet, boolean, blob), but it is duration)"
          },
          {
            new Case(
                "the newest writetime of a table of keys only",
                "history",
                HISTORY,
                "compact",
                COMPACT,
                RENAME_DATE + "reshape: {onConflict: keepNewestWritetime}\n"),
            "reshape.onConflict: keepNewestWritetime (expected: a rule that needs no"
                + " writetime: source table ks.history has no copied regular column whose"
                + " writetime can be read (keepMax/keepMin))"
          },
          {
            new Case(
                "timestamps of a non-frozen collection",
                "tagged, preserveTimestamps: true",
                "k int, tags set<text> | (k)",
                "tagged_copy",
                "k int, tags set<text> | (k)",
                ""),
            "source.preserveTimestamps: true (expected: no non-frozen collection"
                + " or UDT columns, but tags is set<text>: its elements have a writetime each."
                + " Set timestamps.nonFrozenCollections: currentTime to write it at the job's"
                + " time, or set preserveTimestamps: false)"
          },
          {
            new Case(
                "a counter table",
                "hits",
                "k int, n counter | (k)",
                "hits_copy",
                "k int, n counter | (k)",
                ""),
            "target.table: ks.hits_copy (expected: a table"
                + " without counter columns (counter tables are not supported))"
          },
          {
            new Case(
                "a timeSlice target without event_bucket",
                SLICE_SOURCE,
                SLICE,
                "by_time",
                SLICE_COLUMNS.replace(", event_bucket int", "")
                    + " | (time_series_id, time_bucket), event_time, event_id, event_item_key",
                TIME_SLICE),
            "timeSlice: target table ks.by_time has no column event_bucket (expected: "
                + SLICE_EXPECTED.formatted("event_bucket int")
                + ")"
          },
          {
            new Case(
                "a timeSlice source whose event_bucket is a bigint",
                SLICE_SOURCE,
                SLICE.replace("event_bucket int", "event_bucket bigint"),
                "slice_b",
                SLICE,
                TIME_SLICE),
            "timeSlice: source table ks.slice_a column event_bucket is bigint (expected:"
                + " event_bucket int, as in a slice table)"
          },
          {
            new Case(
                "a timeSlice target whose value is text",
                SLICE_SOURCE,
                SLICE,
                "slice_b",
                SLICE.replace("event_item_value blob", "event_item_value text"),
                TIME_SLICE),
            "timeSlice: target table ks.slice_b column event_item_value is text (expected:"
                + " event_item_value blob, as in a slice table)"
          },
          {
            new Case(
                "a timeSlice target of another primary key",
                SLICE_SOURCE,
                SLICE,
                "slice_b",
                SLICE_COLUMNS
                    + " | (time_series_id, time_bucket), event_bucket, event_time, event_id,"
                    + " event_item_key",
                TIME_SLICE),
            "timeSlice: target table ks.slice_b has primary key ((time_series_id, time_bucket),"
                + " event_bucket, event_time, event_id, event_item_key) (expected: a slice"
                + " table's, ((time_series_id, time_bucket, event_bucket), event_time, event_id,"
                + " event_item_key))"
          },
          {
            new Case(
                "a timeSlice job renaming a bucket",
                SLICE_SOURCE,
                SLICE_COLUMNS + ", b int" + SLICE_KEY,
                "slice_b",
                SLICE,
                TIME_SLICE + "renames: [{from: b, to: event_bucket}]\n"),
            "renames[0].to: event_bucket" + NOT_A_SLICE_COLUMN
          },
          {
            new Case(
                "a timeSlice job renaming a slice column",
                SLICE_SOURCE,
                SLICE,
                "slice_b",
                SLICE_COLUMNS + ", meta text" + SLICE_KEY,
                TIME_SLICE + "renames: [{from: value_metadata, to: meta}]\n"),
            "renames[0].from: value_metadata" + NOT_A_SLICE_COLUMN
          },
          {
            new Case(
                "a timeSlice job dropping a bucket",
                SLICE_SOURCE,
                SLICE,
                "slice_b",
                SLICE,
                TIME_SLICE + "drop: [time_bucket]\n"),
            "drop[0]: time_bucket" + NOT_A_SLICE_COLUMN
          },
          {
            new Case(
                "a timeSlice job with a constant bucket",
                SLICE_SOURCE,
                SLICE,
                "slice_b",
                SLICE,
                TIME_SLICE + "constants: {event_bucket: 3}\n"),
            "constants.event_bucket: 3" + NOT_A_SLICE_COLUMN
          },
          {
            new Case(
                "a timeSlice job with a reshape rule",
                SLICE_SOURCE,
                SLICE,
                "slice_b",
                SLICE,
                TIME_SLICE + "reshape: {onConflict: keepNewestWritetime}\n"),
            "reshape.onConflict: keepNewestWritetime (expected: none with timeSlice: every row"
                + " keeps its identity (time_series_id, event_time, event_id, event_item_key) and"
                + " its buckets are computed from it, so no two rows land on one target row)"
          },
          {
            new Case(
                "a timeSlice job without timestamps",
                "slice_a",
                SLICE,
                "slice_b",
                SLICE,
                TIME_SLICE),
            "source.preserveTimestamps: false (expected: true with timeSlice: a slice's cells"
                + " keep their writetimes and TTLs (readers tell a stale value_metadata by its"
                + " older writetime))"
          },
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void refuses_naming_the_key_the_value_and_what_was_expected(Case job, String message) {
    assertThatThrownBy(() -> job.plan()).isInstanceOf(ConfigException.class).hasMessage(message);
  }

  @Test
  void the_fingerprint_of_a_plan_is_stable_across_versions() {
    // Savepoints record it: a new version that planned the same job differently would make
    // every existing savepoint refuse to resume. The values are those of earlier versions.
    Case copy = new Case("copy", "history", HISTORY, "history_copy", HISTORY, "");
    assertThat(copy.plan().fingerprint()).isEqualTo("c3bb25a5ac337dcd");
    Case compact =
        new Case(
            "compact",
            "history",
            HISTORY,
            "compact",
            COMPACT,
            RENAME_DATE + "reshape: {onConflict: keepMax, column: seen_date}\n");
    assertThat(compact.plan().fingerprint()).isEqualTo("78f6bc2533324bcd");
  }

  @Test
  void the_lookup_of_a_target_row_names_its_primary_key() {
    Case compact =
        new Case(
            "compact",
            "history",
            HISTORY,
            "compact",
            COMPACT,
            RENAME_DATE + "reshape: {onConflict: keepMax, column: seen_date}\n");
    assertThat(compact.plan().target().lookupCql())
        .isEqualTo(
            "SELECT partnerid, id, seen_date" + " FROM ks.compact WHERE partnerid = ? AND id = ?");
  }

  @Test
  void a_time_slice_computes_the_buckets_and_copies_every_other_column() {
    MigrationPlan plan =
        new Case("slice", SLICE_SOURCE, SLICE, "slice_b", SLICE, TIME_SLICE).plan();
    SliceKeys keys = plan.sliceKeys();
    assertThat(keys.describe())
        .isEqualTo(
            "timeSlice [2026-11-29T00:00:00Z, 2026-11-30T00:00:00Z), time buckets of 600 s, 8"
                + " event buckets");
    assertThat(List.of(keys.seriesColumn(), keys.timeBucketColumn(), keys.eventBucketColumn()))
        .containsExactly(0, 1, 2);
    assertThat(List.of(keys.eventTimeColumn(), keys.eventIdColumn())).containsExactly(3, 4);
    List<TargetColumn> columns = plan.target().columns();
    assertThat(columns.get(1).sourceIndex()).as("time_bucket is not copied").isEqualTo(-1);
    assertThat(columns.get(2).sourceIndex()).as("event_bucket is not copied").isEqualTo(-1);
    assertThat(columns.get(6).writetimeIndex()).as("event_item_value's writetime").isEqualTo(8);
    assertThat(columns.get(7).ttlIndex()).as("value_metadata's TTL").isEqualTo(11);

    Case other =
        new Case(
            "slice",
            SLICE_SOURCE,
            SLICE,
            "slice_b",
            SLICE,
            TIME_SLICE.replace("eventBuckets: 8", "eventBuckets: 16"));
    assertThat(other.plan().fingerprint())
        .as("a savepoint of other settings is not resumed")
        .isNotEqualTo(plan.fingerprint());
  }

  /**
   * A schema from {@code "name type, ... | (partition key), clustering, ..."}; the table name may
   * carry extra source keys after a comma, which are not part of it.
   */
  static TableSchema schema(String table, String spec) {
    String name = table.contains(",") ? table.substring(0, table.indexOf(',')) : table;
    String[] parts = spec.split("\\|");
    Map<String, DataType> types = new java.util.LinkedHashMap<>();
    for (String column : parts[0].split(",")) {
      String[] nameAndType = column.trim().split(" ", 2);
      types.put(nameAndType[0], type(nameAndType[1].trim()));
    }
    String key = parts[1].trim();
    List<String> partition = List.of(key.substring(1, key.indexOf(')')).split(",\\s*"));
    String rest = key.substring(key.indexOf(')') + 1).replaceFirst("^,\\s*", "");
    List<String> clustering = rest.isEmpty() ? List.of() : List.of(rest.split(",\\s*"));
    List<Column> others = new ArrayList<>();
    types.forEach(
        (n, t) -> {
          if (!partition.contains(n) && !clustering.contains(n)) {
            others.add(column(n, t));
          }
        });
    return new TableSchema(
        CqlIdentifier.fromCql("ks"),
        CqlIdentifier.fromCql(name),
        partition.stream().map(n -> column(n, types.get(n))).toList(),
        clustering.stream().map(n -> column(n, types.get(n))).toList(),
        others);
  }

  private static Column column(String name, DataType type) {
    return new Column(CqlIdentifier.fromCql(name), type);
  }

  private static DataType type(String cql) {
    return switch (cql) {
      case "text" -> DataTypes.TEXT;
      case "int" -> DataTypes.INT;
      case "timestamp" -> DataTypes.TIMESTAMP;
      case "duration" -> DataTypes.DURATION;
      case "counter" -> DataTypes.COUNTER;
      case "blob" -> DataTypes.BLOB;
      case "bigint" -> DataTypes.BIGINT;
      case "set<text>" -> DataTypes.setOf(DataTypes.TEXT);
      default -> throw new IllegalArgumentException(cql);
    };
  }
}
