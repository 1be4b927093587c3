package io.varve.server;

import static io.varve.server.Events.event;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.server.config.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The control plane's side of re-partitioning a slice, on the real test Cassandra with the server's
 * clock moved: a slice still accepting writes is refused; a pending table is prepared, prepared
 * again (the same), filled here by CQL with core's bucket functions (the reshaper's part), and
 * committed while readers page through the slice: every read, before, during and after the swap,
 * returns exactly the events written, none twice; the old table is dropped after its grace; a
 * cancel drops a pending table; bad settings name their field.
 */
class SliceRepartitionIT {

  static final String NS = "repartition_it";
  static final MovableClock clock = new MovableClock();
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(
        config,
        """
        timeseries:
          sliceMaintenanceInterval: 1s
          compaction:
            switchInterval: 1h
          histogram:
            enabled: false
          repartition:
            oldTableGrace: 3m
        """);
    server = new TestServer(ServerSettings.load(config), clock, "varve_repartition_it", NS);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static JsonNode sliceAt(Instant start) {
    for (JsonNode s :
        server
            .post("ListTimeSlices", "{\"namespace\": \"" + NS + "\"}")
            .body()
            .path("timeSlices")) {
      if (Instant.parse(s.path("startTime").asText()).equals(start)) {
        return s;
      }
    }
    throw new AssertionError("no slice at " + start);
  }

  static boolean tableExists(String table) {
    return server
            .cql
            .execute(
                "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND"
                    + " table_name = ?",
                NS,
                table)
            .one()
        != null;
  }

  static TestServer.Reply call(String rpc, Instant start, String extra) {
    return server.post(
        rpc, "{\"namespace\": \"%s\", \"sliceStart\": \"%s\"%s}".formatted(NS, start, extra));
  }

  /** What the reshaper does: every row of {@code from} into {@code to}, re-bucketed by core. */
  static void copy(Instant start, Instant end, String from, String to, long bucket, int events) {
    TimeSlice target = new TimeSlice(NS, start, end, to, bucket, events, SliceStatus.ACTIVE);
    PreparedStatement insert =
        server.cql.prepare(
            "INSERT INTO "
                + NS
                + "."
                + to
                + " (time_series_id, time_bucket, event_bucket, event_time, event_id,"
                + " event_item_key, event_item_value, value_metadata) VALUES (?, ?, ?, ?, ?, ?, ?,"
                + " ?)");
    for (Row row :
        server.cql.execute(
            "SELECT time_series_id, event_time, event_id, event_item_key, event_item_value,"
                + " value_metadata FROM "
                + NS
                + "."
                + from)) {
      String series = row.getString(0);
      Instant time = row.getInstant(1);
      String id = row.getString(2);
      server.cql.execute(
          insert.bind(
              series,
              Instant.ofEpochMilli(target.timeBucketOf(time.toEpochMilli())),
              EventBuckets.of(series, time.toEpochMilli(), id, events),
              time,
              id,
              row.getByteBuffer(3),
              row.getByteBuffer(4),
              row.getString(5)));
    }
  }

  @Test
  void a_closed_slice_moves_to_its_new_table_under_running_readers_with_no_gap_or_duplicate()
      throws Exception {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
              "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600,
                "eventBuckets": 1}, "acceptLimit": "2h"}}]}"""
                .formatted(NS));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    Instant t = clock.instant().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS);
    Instant start = t.truncatedTo(ChronoUnit.HOURS);
    Instant end = start.plus(Duration.ofHours(1));
    List<ObjectNode> events = new ArrayList<>();
    Set<String> expected = new TreeSet<>();
    for (int i = 0; i < 300; i++) {
      // in the slice, the latest a millisecond before its end
      Instant at = start.plusMillis((end.toEpochMilli() - start.toEpochMilli() - 1) * i / 299);
      events.add(event("s", at, "e" + i, "k", "v" + i));
      events.add(event("other-" + (i % 7), at, "o" + i, "k", "v"));
      expected.add("e" + i);
    }
    for (int from = 0; from < events.size(); from += 200) {
      assertThat(
              server
                  .post("WriteEventRecordsSync", write(NS, events.subList(from, from + 200)))
                  .status())
          .isEqualTo(200);
    }

    // still in the write window
    TestServer.Reply early = call("PrepareSliceRepartition", start, ", \"eventBuckets\": 4");
    assertThat(early.status()).as(early.body().toString()).isEqualTo(412);
    assertThat(early.errorMessage()).contains("still accepts writes").contains("from ");

    clock.advance(Duration.ofHours(3).plusMinutes(30));
    // bad settings name their field
    TestServer.Reply zero = call("PrepareSliceRepartition", start, ", \"eventBuckets\": 0");
    assertThat(zero.errorField()).isEqualTo("event_buckets");
    TestServer.Reply odd = call("PrepareSliceRepartition", start, ", \"secondsPerTimeBucket\": 7");
    assertThat(odd.errorField()).isEqualTo("seconds_per_time_bucket");
    assertThat(odd.errorMessage()).contains("dividing the slice width 3600");
    TestServer.Reply none = call("PrepareSliceRepartition", start, "");
    assertThat(none.errorField()).as("no settings and no histogram").isEqualTo("event_buckets");
    TestServer.Reply same = call("PrepareSliceRepartition", start, ", \"eventBuckets\": 1");
    assertThat(same.errorMessage()).contains("the slice's own settings");
    TestServer.Reply missing =
        call(
            "PrepareSliceRepartition",
            start.minus(Duration.ofMinutes(30)),
            ", \"eventBuckets\": 4");
    assertThat(missing.status()).isEqualTo(404);

    TestServer.Reply prepared =
        call(
            "PrepareSliceRepartition",
            start,
            ", \"eventBuckets\": 4, \"secondsPerTimeBucket\": 600");
    assertThat(prepared.status()).as(prepared.body().toString()).isEqualTo(200);
    String source = prepared.body().path("sourceTable").asText();
    String target = prepared.body().path("targetTable").asText();
    assertThat(prepared.body().path("state").asText()).isEqualTo("PENDING");
    assertThat(target).startsWith(NS + "_").hasSizeLessThanOrEqualTo(48);
    assertThat(tableExists(target)).isTrue();
    assertThat(sliceAt(start).path("pendingTable").asText()).isEqualTo(target);
    assertThat(sliceAt(start).path("table").asText()).as("readers still read it").isEqualTo(source);
    // prepared again: the same table (a killed job resumes); other settings: refused
    assertThat(
            call(
                    "PrepareSliceRepartition",
                    start,
                    ", \"eventBuckets\": 4, \"secondsPerTimeBucket\": 600")
                .body()
                .path("targetTable")
                .asText())
        .isEqualTo(target);
    TestServer.Reply other = call("PrepareSliceRepartition", start, ", \"eventBuckets\": 8");
    assertThat(other.status()).isEqualTo(412);
    assertThat(other.errorMessage()).contains("under way").contains(target);

    TestServer.Reply uncopied =
        call("CommitSliceRepartition", start, ", \"table\": \"" + target + "\"");
    assertThat(uncopied.status()).isEqualTo(412);
    assertThat(uncopied.errorMessage()).contains("is empty while").contains("copy them first");

    copy(start, end, source, target, 600, 4);

    // readers page through the slice, 40 events a page, while it is swapped
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger afterCommit = new AtomicInteger();
    AtomicBoolean committed = new AtomicBoolean();
    List<Thread> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      Thread reader =
          new Thread(
              () -> {
                while (!stop.get()) {
                  boolean late = committed.get();
                  List<String> ids = pagedIds(start, end);
                  reads.incrementAndGet();
                  if (late) {
                    afterCommit.incrementAndGet();
                  }
                  if (ids.size() != expected.size() || !new TreeSet<>(ids).equals(expected)) {
                    wrong.add(ids.size() + " events: " + ids);
                  }
                }
              });
      reader.start();
      readers.add(reader);
    }
    try {
      swapUnderReaders(start, source, target, reads, afterCommit, committed);
    } finally {
      stop.set(true);
      for (Thread reader : readers) {
        reader.join();
      }
    }
    assertThat(wrong).as("every read returns exactly the events written").isEmpty();
    assertThat(afterCommit.get()).isGreaterThanOrEqualTo(6);
    afterSwap(start, end, source, target);
  }

  static void swapUnderReaders(
      Instant start,
      String source,
      String target,
      AtomicInteger reads,
      AtomicInteger afterCommit,
      AtomicBoolean committed)
      throws Exception {
    TestServer.await("reads before the swap", () -> reads.get() >= 3);
    TestServer.Reply wrongTable =
        call("CommitSliceRepartition", start, ", \"table\": \"" + source + "\"");
    assertThat(wrongTable.status()).isEqualTo(412);
    assertThat(wrongTable.errorMessage()).contains("is not the pending table");
    TestServer.Reply commit =
        call("CommitSliceRepartition", start, ", \"table\": \"" + target + "\"");
    assertThat(commit.status()).as(commit.body().toString()).isEqualTo(200);
    committed.set(true);
    assertThat(commit.body().path("state").asText()).isEqualTo("COMMITTED");
    assertThat(commit.body().path("sourceTable").asText()).isEqualTo(source);
    TestServer.await("reads after the swap", () -> afterCommit.get() >= 6);
  }

  static void afterSwap(Instant start, Instant end, String source, String target) throws Exception {
    JsonNode slice = sliceAt(start);
    assertThat(slice.path("table").asText()).isEqualTo(target);
    assertThat(slice.path("eventBuckets").asInt()).isEqualTo(4);
    assertThat(slice.path("secondsPerTimeBucket").asLong()).isEqualTo(600);
    assertThat(slice.path("previousTable").asText()).isEqualTo(source);
    assertThat(slice.path("pendingTable").asText()).isEmpty();
    // committed again (a command retried after a lost answer): the same answer
    assertThat(
            call("CommitSliceRepartition", start, ", \"table\": \"" + target + "\"")
                .body()
                .path("state")
                .asText())
        .isEqualTo("COMMITTED");

    // the old table goes after its grace of 3 minutes
    assertThat(tableExists(source)).isTrue();
    clock.advance(Duration.ofMinutes(4));
    TestServer.await("the old table dropped", () -> !tableExists(source));
    TestServer.await(
        "the old table forgotten", () -> sliceAt(start).path("previousTable").asText().isEmpty());
    assertThat(pagedIds(start, end)).hasSize(300);

    // a cancelled re-partitioning drops its pending table and changes nothing
    TestServer.Reply again = call("PrepareSliceRepartition", start, ", \"eventBuckets\": 2");
    String abandoned = again.body().path("targetTable").asText();
    assertThat(tableExists(abandoned)).isTrue();
    TestServer.Reply cancelled = call("CancelSliceRepartition", start, "");
    assertThat(cancelled.body().path("state").asText()).isEqualTo("CANCELLED");
    assertThat(tableExists(abandoned)).isFalse();
    assertThat(sliceAt(start).path("table").asText()).isEqualTo(target);
    assertThat(call("CancelSliceRepartition", start, "").body().path("state").asText())
        .isEqualTo("NONE");

    // a namespace deleted with a re-partitioning under way loses its pending table too
    String pending =
        call("PrepareSliceRepartition", start, ", \"eventBuckets\": 8")
            .body()
            .path("targetTable")
            .asText();
    assertThat(tableExists(pending)).isTrue();
    TestServer.Reply deleted =
        server.post(
            "DeleteNamespace",
            "{\"namespace\": \"" + NS + "\", \"confirmNamespace\": \"" + NS + "\"}");
    assertThat(deleted.body().path("done").asBoolean()).as(deleted.body().toString()).isTrue();
    assertThat(tableExists(pending)).isFalse();
    assertThat(tableExists(target)).isFalse();
  }

  static List<String> pagedIds(Instant start, Instant end) {
    List<String> ids = new ArrayList<>();
    String token = "";
    do {
      TestServer.Reply reply =
          server.post(
              "ReadEventRecords",
              """
              {"namespace": "%s", "timeSeriesId": "s", "pageSize": 40, "pageToken": "%s",
               "timeInterval": {"start": "%s", "end": "%s"}}"""
                  .formatted(NS, token, start, end));
      if (reply.status() != 200) {
        ids.add("status " + reply.status() + ": " + reply.body());
        return ids;
      }
      reply.body().path("events").forEach(e -> ids.add(e.path("eventId").asText()));
      token = reply.body().path("nextPageToken").asText();
    } while (!token.isEmpty());
    return ids;
  }
}
