package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.ChildJob;
import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRowsFile;
import io.varve.reshaper.plan.TokenRange;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TimeSeries slice table written with 1-hour time buckets and one event bucket is re-partitioned
 * by a {@code timeSlice} job into 10-minute time buckets of 8 event buckets: row for row, every
 * row's buckets those of core's functions, values and writetimes kept, each series read back
 * partition by partition as the server reads it; validation, resume after SIGKILL, a row outside
 * the slice and bad settings.
 */
class SliceRepartitionIT {
  private static final Instant START = Instant.parse("2026-11-29T00:00:00Z");
  private static final Instant END = Instant.parse("2026-11-30T00:00:00Z");
  private static final TimeSlice OLD =
      new TimeSlice("ns", START, END, "slice_old", 3600, 1, SliceStatus.CLOSED);
  private static final TimeSlice NEW =
      new TimeSlice("ns", START, END, "slice_new", 600, 8, SliceStatus.CLOSED);
  private static final String COLUMNS =
      "time_series_id, time_bucket, event_bucket, event_time, event_id, event_item_key,"
          + " event_item_value, value_metadata";
  private static final String TIME_SLICE =
      "timeSlice:\n  start: 2026-11-29T00:00:00Z\n  end: 2026-11-30T00:00:00Z\n"
          + "  secondsPerTimeBucket: 600\n  eventBuckets: 8\n";
  private static final int SPLITS = 32;

  @TempDir static Path dir;
  static CassandraFixture db;

  /** The source's rows by identity. */
  static Map<Identity, Cells> source;

  /** An event item's identity: what a row keeps through the re-bucketing. */
  record Identity(String series, long timeMillis, String eventId, String itemKey) {}

  /** What else a row holds: its buckets, values, their writetimes, whether its value has a TTL. */
  record Cells(
      Instant timeBucket,
      int eventBucket,
      String value,
      String metadata,
      long valueWritetime,
      Long metadataWritetime,
      boolean ttl) {
    /** All but the buckets, which the job changes. */
    List<Object> kept() {
      return java.util.Arrays.asList(value, metadata, valueWritetime, metadataWritetime, ttl);
    }
  }

  @BeforeAll
  static void createAndFillTheSlice() {
    db = new CassandraFixture("reshaper_slice_repartition_it");
    for (String table :
        List.of("slice_old", "slice_new", "slice_resumed", "slice_stray", "slice_stray_new")) {
      db.execute("CREATE TABLE " + db.keyspace + "." + table + " " + sliceDdl());
    }
    db.execute("CREATE TABLE " + db.keyspace + ".plain (k int PRIMARY KEY, v text)");
    fill("slice_old", events(new Random(7)));
    source = read("slice_old");
    assertThat(source).hasSizeGreaterThan(3000);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void re_buckets_the_slice_row_for_row_and_validates_it() throws Exception {
    Path file = CassandraFixture.jobFile(dir, "repartition", job("slice_old", "slice_new", ""));

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", file.toString());

    assertThat(run.status()).as(run.all()).isZero();
    assertThat(run.err())
        .contains("mode DIRECT")
        .contains(
            "timeSlice [2026-11-29T00:00:00Z, 2026-11-30T00:00:00Z), time buckets of 600 s, 8"
                + " event buckets");
    assertThat(run.out())
        .contains(String.format("rows read %,d, rows written %,d, bad rows 0", n(), n()));
    Map<Identity, Cells> target = read("slice_new");
    assertThat(target.keySet()).isEqualTo(source.keySet());
    for (var e : target.entrySet()) {
      Identity id = e.getKey();
      Cells cells = e.getValue();
      assertThat(cells.timeBucket().toEpochMilli())
          .as("time_bucket of %s", id)
          .isEqualTo(NEW.timeBucketOf(id.timeMillis()));
      assertThat(cells.eventBucket())
          .as("event_bucket of %s", id)
          .isEqualTo(EventBuckets.of(id.series(), id.timeMillis(), id.eventId(), 8));
      assertThat(cells.kept()).as("cells of %s", id).isEqualTo(source.get(id).kept());
    }
    assertThat(target.values().stream().map(Cells::eventBucket).collect(Collectors.toSet()))
        .as("event buckets used")
        .hasSize(8);

    for (String series :
        source.keySet().stream().map(Identity::series).collect(Collectors.toSet())) {
      Set<Identity> expected =
          source.keySet().stream()
              .filter(i -> i.series().equals(series))
              .collect(Collectors.toSet());
      assertThat(readSeriesByPartition("slice_new", series, NEW))
          .as("series %s read time bucket by event bucket", series)
          .isEqualTo(expected);
    }

    CassandraFixture.Run clean =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(clean.status()).as(clean.all()).isZero();
    assertThat(clean.out())
        .contains(String.format("rows checked %,d, missing 0, mismatched 0", n()));

    Identity deleted =
        source.keySet().stream().filter(i -> i.series().equals("dense")).findFirst().orElseThrow();
    db.session.execute(
        "DELETE FROM "
            + db.keyspace
            + ".slice_new WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ? AND"
            + " event_time = ? AND event_id = ? AND event_item_key = ?",
        deleted.series(),
        Instant.ofEpochMilli(NEW.timeBucketOf(deleted.timeMillis())),
        EventBuckets.of(deleted.series(), deleted.timeMillis(), deleted.eventId(), 8),
        Instant.ofEpochMilli(deleted.timeMillis()),
        deleted.eventId(),
        ByteBuffer.wrap(HexFormat.of().parseHex(deleted.itemKey())));
    CassandraFixture.Run found =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(found.status()).as(found.all()).isEqualTo(1);
    assertThat(found.out())
        .contains(String.format("rows checked %,d, missing 1, mismatched 0", n()))
        .contains("missing: {time_series_id='dense', time_bucket=")
        .contains("event_id='" + deleted.eventId() + "'");

    CassandraFixture.Run again = CassandraFixture.cli("migrate", "--config", file.toString());
    assertThat(again.status()).as(again.all()).isZero();
    assertThat(again.out()).contains("nothing to do");
    Path otherSettings =
        CassandraFixture.jobFile(
            dir,
            "other-settings",
            job("slice_old", "slice_new", "").replace("eventBuckets: 8", "eventBuckets: 4"));
    CassandraFixture.Run refused =
        CassandraFixture.cli("migrate", "--config", otherSettings.toString());
    assertThat(refused.status()).as("a savepoint of other settings").isEqualTo(2);
    assertThat(refused.err()).contains("savepoints.path: ").contains("nothing was written");
  }

  @Test
  void resumes_after_kill_9_without_reading_finished_ranges_again() throws Exception {
    String common = job("slice_old", "slice_resumed", "");
    Path slow =
        CassandraFixture.jobFile(dir, "slow", common + "rateLimit:\n  rowsPerSecond: 300\n");
    Path fast = CassandraFixture.jobFile(dir, "fast", common);
    Path savepoint =
        dir.resolve("savepoints")
            .resolve(db.keyspace + ".slice_old-to-" + db.keyspace + ".slice_resumed.savepoint");

    List<Integer> done = ChildJob.killAfter(slow, dir.resolve("child.log"), savepoint, 4);
    assertThat(done).hasSizeBetween(4, SPLITS - 1);
    long rowsInDoneRanges = 0;
    List<TokenRange> ranges = TokenRange.split(SPLITS);
    for (int index : done) {
      TokenRange r = ranges.get(index);
      rowsInDoneRanges +=
          db.session
              .execute(
                  "SELECT count(*) FROM "
                      + db.keyspace
                      + ".slice_old WHERE token(time_series_id, time_bucket, event_bucket) > ? AND"
                      + " token(time_series_id, time_bucket, event_bucket) <= ?",
                  r.start(),
                  r.end())
              .one()
              .getLong(0);
    }

    CassandraFixture.Run rerun = CassandraFixture.cli("migrate", "--config", fast.toString());

    assertThat(rerun.status()).as(rerun.all()).isZero();
    assertThat(rerun.out())
        .contains("(" + done.size() + " done by earlier runs)")
        .contains(String.format("rows read %,d,", n() - rowsInDoneRanges));
    Map<Identity, Cells> resumed = read("slice_resumed");
    assertThat(resumed.keySet()).isEqualTo(source.keySet());
    resumed.forEach(
        (id, cells) ->
            assertThat(cells.eventBucket())
                .isEqualTo(EventBuckets.of(id.series(), id.timeMillis(), id.eventId(), 8)));
    assertThat(ChildJob.doneRanges(savepoint)).hasSize(SPLITS);
  }

  @Test
  void a_row_outside_the_slice_is_a_bad_row() throws Exception {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      events.add(
          new Event(
              "stray-" + (i % 3), START.toEpochMilli() + i * 997_000L, "in-" + i, 0, null, 0));
    }
    events.add(new Event("stray-0", END.toEpochMilli(), "at-the-end", 0, null, 0));
    events.add(new Event("stray-1", START.toEpochMilli() - 1, "just-before", 0, null, 0));
    fill("slice_stray", events);
    Path badRows = dir.resolve("stray.bad-rows");
    Path file =
        CassandraFixture.jobFile(
            dir,
            "stray",
            job("slice_stray", "slice_stray_new", "failures:\n  badRowsPath: " + badRows + "\n"));

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", file.toString());

    assertThat(run.status()).as(run.all()).isEqualTo(1);
    assertThat(run.out()).contains("rows read 42, rows written 40, bad rows 2");
    assertThat(read("slice_stray_new")).hasSize(40);
    List<BadRow> bad = BadRowsFile.read(badRows);
    assertThat(bad).hasSize(2);
    assertThat(bad)
        .extracting(BadRow::error)
        .containsExactlyInAnyOrder(
            "event_time 2026-11-30T00:00:00Z is outside the slice [2026-11-29T00:00:00Z,"
                + " 2026-11-30T00:00:00Z) of timeSlice",
            "event_time 2026-11-28T23:59:59.999Z is outside the slice [2026-11-29T00:00:00Z,"
                + " 2026-11-30T00:00:00Z) of timeSlice");
    assertThat(bad)
        .extracting(BadRow::statement)
        .allMatch(s -> s.startsWith("INSERT INTO " + db.keyspace + ".slice_stray_new ("));

    CassandraFixture.Run validate =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString());
    assertThat(validate.status()).as("bad rows are differences").isEqualTo(1);
    assertThat(validate.out()).contains("rows checked 42, missing 0, mismatched 0");

    // A row the copy did not see (written after it) is missing; --copy-missing writes it in its
    // new buckets, at its own writetime. (A row deleted from the target would stay shadowed by
    // its tombstone, which is newer than the writetime the copy keeps.)
    Event late = new Event("stray-2", START.toEpochMilli() + 3_600_000 + 1, "late", 0, "m", 1);
    fill("slice_stray", List.of(late));
    CassandraFixture.Run copy =
        CassandraFixture.cli("migrate", "validate", "--config", file.toString(), "--copy-missing");
    assertThat(copy.out())
        .contains("rows checked 43, missing 1, mismatched 0, missing rows copied 1")
        .contains("missing: {time_series_id='stray-2', time_bucket='2026-11-29T01:00:00.000Z',");
    Map<Identity, Cells> copied = read("slice_stray_new");
    assertThat(copied).hasSize(41);
    Identity lateId = new Identity("stray-2", late.timeMillis(), "late", "0007");
    assertThat(copied.get(lateId).eventBucket())
        .isEqualTo(EventBuckets.of("stray-2", late.timeMillis(), "late", 8));
    assertThat(copied.get(lateId).kept())
        .as("its cells and writetimes")
        .isEqualTo(read("slice_stray").get(lateId).kept());
  }

  @Test
  void bad_settings_and_a_table_that_is_no_slice_table_are_refused_with_status_2()
      throws Exception {
    CassandraFixture.Run width =
        CassandraFixture.cli(
            "migrate",
            "--config",
            CassandraFixture.jobFile(
                    dir,
                    "bad-width",
                    job("slice_old", "slice_new", "")
                        .replace("secondsPerTimeBucket: 600", "secondsPerTimeBucket: 7"))
                .toString());
    assertThat(width.status()).as(width.all()).isEqualTo(2);
    assertThat(width.err())
        .contains(
            "timeSlice.secondsPerTimeBucket: 7 (expected: a divisor of the slice's width, 86400"
                + " seconds from 2026-11-29T00:00:00Z to 2026-11-30T00:00:00Z)")
        .contains("nothing was written");

    CassandraFixture.Run plain =
        CassandraFixture.cli(
            "migrate",
            "--config",
            CassandraFixture.jobFile(dir, "plain", job("slice_old", "plain", "")).toString());
    assertThat(plain.status()).as(plain.all()).isEqualTo(2);
    assertThat(plain.err())
        .contains(
            "timeSlice: target table "
                + db.keyspace
                + ".plain has no column time_series_id (expected: a slice table")
        .contains("nothing was written");
    assertThat(db.rows("SELECT * FROM " + db.keyspace + ".plain")).isEmpty();
  }

  private static long n() {
    return source.size();
  }

  private static String job(String from, String to, String extra) {
    return db.side("source", from, "  splitCount: " + SPLITS + "\n  preserveTimestamps: true\n")
        + db.side("target", to, "")
        + "savepoints:\n  path: "
        + dir.resolve("savepoints")
        + "\n  intervalSeconds: 0\n"
        + TIME_SLICE
        + extra;
  }

  /** The CQL shape of the event store's slice tables (CqlSliceTables). */
  private static String sliceDdl() {
    return "(time_series_id text, time_bucket timestamp, event_bucket int, event_time timestamp,"
        + " event_id text, event_item_key blob, event_item_value blob, value_metadata text,"
        + " PRIMARY KEY ((time_series_id, time_bucket, event_bucket), event_time, event_id,"
        + " event_item_key)) WITH CLUSTERING ORDER BY (event_time DESC, event_id ASC,"
        + " event_item_key ASC)";
  }

  /**
   * One event and how it is written: {@code items} event items (at least one), its value metadata
   * or none, and how its cells get their writetimes: 0 = the server's time, 1 = {@code USING
   * TIMESTAMP}, 2 = the value and an older metadata at timestamps of their own, 3 = with a TTL.
   */
  record Event(String series, long timeMillis, String id, int items, String metadata, int how) {}

  /** A dense series and a few sparse ones, both ends of the slice included. */
  private static List<Event> events(Random random) {
    List<Event> events = new ArrayList<>();
    long width = END.toEpochMilli() - START.toEpochMilli();
    events.add(new Event("dense", START.toEpochMilli(), "first", 2, "m", 1));
    events.add(new Event("dense", END.toEpochMilli() - 1, "last", 1, null, 2));
    Map<String, Integer> counts = new HashMap<>();
    counts.put("dense", 1500);
    for (int s = 0; s < 7; s++) {
      counts.put("sparse-" + s, 20 + 40 * s);
    }
    counts.forEach(
        (series, count) -> {
          for (int i = 0; i < count; i++) {
            long time = START.toEpochMilli() + (long) (random.nextDouble() * width);
            events.add(
                new Event(
                    series,
                    time,
                    "e-" + i + "-" + random.nextInt(1000),
                    random.nextInt(3),
                    random.nextInt(5) == 0 ? null : "codec=" + random.nextInt(3),
                    random.nextInt(4)));
          }
        });
    return events;
  }

  /** Writes {@code events} into a slice table with the original settings, OLD's buckets. */
  private static void fill(String table, List<Event> events) {
    String insert = "INSERT INTO " + db.keyspace + "." + table + " (" + COLUMNS + ")";
    PreparedStatement plain = db.session.prepare(insert + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    PreparedStatement timed =
        db.session.prepare(insert + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
    PreparedStatement withTtl =
        db.session.prepare(insert + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) USING TTL 864000");
    PreparedStatement metadataLater =
        db.session.prepare(
            "UPDATE "
                + db.keyspace
                + "."
                + table
                + " USING TIMESTAMP ? SET value_metadata = ? WHERE time_series_id = ? AND"
                + " time_bucket = ? AND event_bucket = ? AND event_time = ? AND event_id = ? AND"
                + " event_item_key = ?");
    List<CompletableFuture<AsyncResultSet>> pending = new ArrayList<>();
    long timestamp = 1_700_000_000_000_000L;
    for (Event e : events) {
      Instant bucket = Instant.ofEpochMilli(OLD.timeBucketOf(e.timeMillis()));
      int eventBucket = EventBuckets.of(e.series(), e.timeMillis(), e.id(), 1);
      for (int item = 0; item < Math.max(1, e.items()); item++) {
        ByteBuffer key = ByteBuffer.wrap(new byte[] {(byte) item, 7});
        ByteBuffer value = ByteBuffer.wrap((e.id() + "/" + item).getBytes());
        Object[] values = {
          e.series(),
          bucket,
          eventBucket,
          Instant.ofEpochMilli(e.timeMillis()),
          e.id(),
          key,
          value,
          e.how() == 2 ? null : e.metadata()
        };
        timestamp += 1000;
        List<BoundStatement> statements = new ArrayList<>();
        switch (e.how()) {
          case 1 -> statements.add(timed.bind(append(values, timestamp)));
          case 2 -> {
            // the value first, without a metadata cell (a null would be a newer tombstone)
            statements.add(timed.bind(append(values, timestamp)).unset(7));
            statements.add(
                metadataLater.bind(
                    timestamp - 500_000,
                    e.metadata() == null ? "stale" : e.metadata(),
                    e.series(),
                    bucket,
                    eventBucket,
                    Instant.ofEpochMilli(e.timeMillis()),
                    e.id(),
                    key));
          }
          case 3 -> statements.add(withTtl.bind(values));
          default -> statements.add(plain.bind(values));
        }
        for (BoundStatement s : statements) {
          pending.add(db.session.executeAsync(s).toCompletableFuture());
        }
        if (pending.size() >= 128) {
          pending.forEach(CompletableFuture::join);
          pending.clear();
        }
      }
    }
    pending.forEach(CompletableFuture::join);
  }

  private static Object[] append(Object[] values, Object last) {
    Object[] out = java.util.Arrays.copyOf(values, values.length + 1);
    out[values.length] = last;
    return out;
  }

  /** Every row of a slice table by identity. */
  private static Map<Identity, Cells> read(String table) {
    Map<Identity, Cells> rows = new HashMap<>();
    for (Row r :
        db.rows(
            "SELECT time_series_id, time_bucket, event_bucket, event_time, event_id,"
                + " event_item_key, event_item_value, value_metadata, WRITETIME(event_item_value),"
                + " WRITETIME(value_metadata), TTL(event_item_value) FROM "
                + db.keyspace
                + "."
                + table)) {
      Identity id =
          new Identity(
              r.getString(0),
              r.getInstant(3).toEpochMilli(),
              r.getString(4),
              HexFormat.of().formatHex(bytes(r.getByteBuffer(5))));
      Cells cells =
          new Cells(
              r.getInstant(1),
              r.getInt(2),
              HexFormat.of().formatHex(bytes(r.getByteBuffer(6))),
              r.getString(7),
              r.getLong(8),
              r.isNull(9) ? null : r.getLong(9),
              !r.isNull(10));
      assertThat(rows.put(id, cells)).as("one row per identity").isNull();
    }
    return rows;
  }

  /**
   * The events of {@code series} read the way the server reads a slice: one query per partition,
   * for each time bucket of the slice and each event bucket.
   */
  private static Set<Identity> readSeriesByPartition(String table, String series, TimeSlice slice)
      throws Exception {
    PreparedStatement select =
        db.session.prepare(
            "SELECT event_time, event_id, event_item_key FROM "
                + db.keyspace
                + "."
                + table
                + " WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ?");
    Set<Identity> found = new HashSet<>();
    List<CompletableFuture<AsyncResultSet>> pending = new ArrayList<>();
    for (long bucket = START.toEpochMilli();
        bucket < END.toEpochMilli();
        bucket += slice.bucketMillis()) {
      for (int eventBucket = 0; eventBucket < slice.eventBuckets(); eventBucket++) {
        pending.add(
            db.session
                .executeAsync(
                    select
                        .bind(series, Instant.ofEpochMilli(bucket), eventBucket)
                        .setPageSize(5000))
                .toCompletableFuture());
        if (pending.size() >= 128) {
          collect(series, pending, found);
        }
      }
    }
    collect(series, pending, found);
    return found;
  }

  private static void collect(
      String series, List<CompletableFuture<AsyncResultSet>> pending, Set<Identity> found) {
    for (CompletableFuture<AsyncResultSet> f : pending) {
      AsyncResultSet rs = f.join();
      assertThat(rs.hasMorePages()).as("one page per partition").isFalse();
      for (Row r : rs.currentPage()) {
        found.add(
            new Identity(
                series,
                r.getInstant(0).toEpochMilli(),
                r.getString(1),
                HexFormat.of().formatHex(bytes(r.getByteBuffer(2)))));
      }
    }
    pending.clear();
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
