package io.varve.server;

import static io.varve.server.Events.b64;
import static io.varve.server.Events.event;
import static io.varve.server.Events.ids;
import static io.varve.server.Events.read;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTTP/JSON API end to end on the real local Cassandra. */
class TimeSeriesApiIT {

  static final String NS = "api_it";
  static TestServer server;
  static Instant now;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_api_it", NS, "api_it_update");
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "api_it", "persistence_configuration": [{
          "id": "PRIMARY_STORAGE",
          "physical_storage": {"type": "CASSANDRA", "cluster": "local", "dataset": "api_it"},
          "config": {
            "timePartition": {"secondsPerTimeSlice": "3600", "secondPerTimeBucket": "600", "eventBuckets": 4},
            "consistencyScope": "LOCAL", "consistencyTarget": "STRONG", "acceptLimit": "14400s"
          }}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void create_namespace_pre_creates_slices_covering_the_write_window() {
    JsonNode ns = server.post("GetNamespace", "{\"namespace\": \"api_it\"}").body();
    List<Instant[]> slices = new ArrayList<>();
    ns.path("timeSlices")
        .forEach(
            s ->
                slices.add(
                    new Instant[] {
                      Instant.parse(s.path("startTime").asText()),
                      Instant.parse(s.path("endTime").asText())
                    }));
    assertThat(slices).isNotEmpty();
    Instant earliest = slices.stream().map(s -> s[0]).min(Instant::compareTo).orElseThrow();
    Instant latest = slices.stream().map(s -> s[1]).max(Instant::compareTo).orElseThrow();
    assertThat(earliest).isBeforeOrEqualTo(now.minus(Duration.ofHours(4)));
    assertThat(latest).isAfterOrEqualTo(now.plus(Duration.ofHours(1)));
    Set<String> tables = new HashSet<>();
    server
        .cql
        .execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'api_it'")
        .forEach(r -> tables.add(r.getString(0)));
    ns.path("timeSlices")
        .forEach(
            s -> {
              assertThat(tables).contains(s.path("table").asText());
              assertThat(s.path("eventBuckets").asInt()).isEqualTo(4);
              assertThat(s.path("secondsPerTimeBucket").asLong()).isEqualTo(600);
              assertThat(s.path("status").asText()).isEqualTo("ACTIVE");
            });
  }

  @Test
  void round_trip_across_slice_and_bucket_boundaries_newest_first() {
    Instant hour = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
    List<Instant> times =
        List.of(
            hour.minus(Duration.ofHours(1)),
            hour.minusMillis(1),
            hour,
            hour.plus(Duration.ofMinutes(10)).minusMillis(1),
            hour.plus(Duration.ofMinutes(10)),
            hour.minus(Duration.ofMinutes(50)),
            now.minusSeconds(1));
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < times.size(); i++) {
      events.add(event("boundaries", times.get(i), "e" + i, "k", "v" + i, "other", "o" + i));
    }
    TestServer.Reply written = server.post("WriteEventRecordsSync", write(NS, events));
    assertThat(written.status()).as(written.body().toString()).isEqualTo(200);
    assertThat(written.body().path("writtenCount").asInt()).isEqualTo(times.size());

    JsonNode page =
        server
            .post(
                "ReadEventRecords",
                read(NS, "boundaries", hour.minus(Duration.ofHours(2)), now.plusSeconds(1)))
            .body();
    List<Instant> read = new ArrayList<>();
    page.path("events").forEach(e -> read.add(Instant.parse(e.path("eventTime").asText())));
    assertThat(read).isSortedAccordingTo((a, b) -> b.compareTo(a));
    assertThat(read).containsExactlyInAnyOrderElementsOf(times);
    JsonNode first = page.path("events").get(0);
    assertThat(first.path("eventItems")).hasSize(2);
    assertThat(first.path("eventItems").get(0).path("eventItemKey").asText()).isEqualTo(b64("k"));

    JsonNode exact =
        server
            .post(
                "ReadEventRecords", read(NS, "boundaries", hour, hour.plus(Duration.ofMinutes(10))))
            .body();
    assertThat(ids(exact)).as("start inclusive, end exclusive").containsExactly("e3", "e2");
  }

  @Test
  void equal_times_are_ordered_by_event_id() {
    Instant t = now.minusSeconds(30);
    server.post(
        "WriteEventRecordsSync",
        write(
            NS,
            List.of(
                event("ties", t, "c", "k", "v"),
                event("ties", t, "a", "k", "v"),
                event("ties", t, "b", "k", "v"),
                event("ties", t.plusMillis(1), "z", "k", "v"))));
    JsonNode page = server.post("ReadEventRecords", read(NS, "ties", t, t.plusSeconds(1))).body();
    assertThat(ids(page)).containsExactly("z", "a", "b", "c");
  }

  @Test
  void event_filters_keep_events_having_every_matching_item() {
    Instant t = now.minusSeconds(60);
    server.post(
        "WriteEventRecordsSync",
        write(
            NS,
            List.of(
                event("filters", t, "ios1", "deviceType", "ios", "region", "eu"),
                event(
                    "filters", t.plusMillis(1), "android", "deviceType", "android", "region", "eu"),
                event("filters", t.plusMillis(2), "ios2", "deviceType", "ios", "region", "us"))));
    ObjectNode request = read(NS, "filters", t, t.plusSeconds(1));
    request
        .putArray("eventFilters")
        .addObject()
        .put("matchEventItemKey", b64("deviceType"))
        .put("matchEventItemValue", b64("ios"));
    assertThat(ids(server.post("ReadEventRecords", request).body()))
        .containsExactly("ios2", "ios1");
    ((com.fasterxml.jackson.databind.node.ArrayNode) request.get("eventFilters"))
        .addObject()
        .put("matchEventItemKey", b64("region"))
        .put("matchEventItemValue", b64("eu"));
    assertThat(ids(server.post("ReadEventRecords", request).body())).containsExactly("ios1");
  }

  @Test
  void small_pages_return_every_event_exactly_once() {
    Instant start = now.minus(Duration.ofMinutes(150));
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < 97; i++) {
      events.add(
          event("paging", start.plusSeconds(i * 90L), String.format("p%03d", i), "k", "v" + i));
    }
    events.add(event("paging", start.plusSeconds(45 * 90L), "p045b", "k", "same millisecond"));
    assertThat(
            server
                .post("WriteEventRecordsSync", write(NS, events))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(98);

    List<String> all = new ArrayList<>();
    ObjectNode request = read(NS, "paging", start, now).put("pageSize", 7);
    int pages = 0;
    while (true) {
      JsonNode page = server.post("ReadEventRecords", request).body();
      pages++;
      assertThat(page.path("events").size()).isLessThanOrEqualTo(7);
      all.addAll(ids(page));
      String token = page.path("nextPageToken").asText();
      if (token.isEmpty()) {
        break;
      }
      request.put("pageToken", token);
    }
    assertThat(all).hasSize(98).doesNotHaveDuplicates();
    assertThat(pages).isEqualTo(14);
    assertThat(all.get(0)).isEqualTo("p096");
    assertThat(all.get(all.size() - 1)).isEqualTo("p000");

    ObjectNode limited =
        read(NS, "paging", start, now).put("pageSize", 10).put("totalRecordLimit", 25);
    List<String> capped = new ArrayList<>();
    while (true) {
      JsonNode page = server.post("ReadEventRecords", limited).body();
      capped.addAll(ids(page));
      if (page.path("nextPageToken").asText().isEmpty()) {
        break;
      }
      limited.put("pageToken", page.path("nextPageToken").asText());
    }
    assertThat(capped).hasSize(25).isEqualTo(all.subList(0, 25));
  }

  @Test
  void retried_and_concurrent_writes_leave_one_copy() {
    Instant t = now.minusSeconds(90);
    ObjectNode batch =
        write(
            NS,
            List.of(event("idem", t, "x", "a", "1", "b", "2"), event("idem", t, "y", "a", "3")));
    List<CompletableFuture<TestServer.Reply>> writes =
        IntStream.range(0, 6)
            .mapToObj(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> server.post("WriteEventRecordsSync", batch)))
            .toList();
    writes.forEach(w -> assertThat(w.join().body().path("writtenCount").asInt()).isEqualTo(2));
    server.post("WriteEventRecordsSync", batch);
    JsonNode page = server.post("ReadEventRecords", read(NS, "idem", t, t.plusSeconds(1))).body();
    assertThat(ids(page)).containsExactly("x", "y");
    assertThat(page.path("events").get(0).path("eventItems")).hasSize(2);
    long rows = 0;
    for (Row table :
        server.cql.execute(
            "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'api_it'")) {
      rows +=
          server
              .cql
              .execute(
                  "SELECT count(*) FROM api_it."
                      + table.getString(0)
                      + " WHERE time_series_id = 'idem' ALLOW FILTERING")
              .one()
              .getLong(0);
    }
    assertThat(rows).as("one row per item").isEqualTo(3);
  }

  @Test
  void events_outside_the_write_window_get_per_event_errors_and_the_rest_is_written() {
    Instant t = now.minusSeconds(120);
    JsonNode reply =
        server
            .post(
                "WriteEventRecordsSync",
                write(
                    NS,
                    List.of(
                        event("window", t, "ok1", "k", "v"),
                        event("window", now.minus(Duration.ofHours(5)), "too-old", "k", "v"),
                        event("window", now.plus(Duration.ofHours(2)), "too-new", "k", "v"),
                        event("window", t.plusMillis(5), "ok2", "k", "v"))))
            .body();
    assertThat(reply.path("writtenCount").asInt()).isEqualTo(2);
    assertThat(reply.path("writtenIndexes").toString()).isEqualTo("[0,3]");
    JsonNode errors = reply.path("errors");
    assertThat(errors).hasSize(2);
    assertThat(errors.get(0).path("index").asInt()).isEqualTo(1);
    assertThat(errors.get(0).path("eventId").asText()).isEqualTo("too-old");
    assertThat(errors.get(0).path("code").asText()).isEqualTo("FAILED_PRECONDITION");
    assertThat(errors.get(0).path("message").asText()).contains("too-old").contains("acceptLimit");
    assertThat(errors.get(1).path("eventId").asText()).isEqualTo("too-new");
    assertThat(errors.get(1).path("message").asText()).contains("future");
    JsonNode page =
        server
            .post(
                "ReadEventRecords",
                read(NS, "window", now.minus(Duration.ofHours(6)), now.plus(Duration.ofHours(3))))
            .body();
    assertThat(ids(page)).containsExactly("ok2", "ok1");
  }

  @Test
  void a_failed_event_at_index_0_and_a_count_of_0_are_printed_not_left_out() {
    JsonNode reply =
        server
            .post(
                "WriteEventRecordsSync",
                write(
                    NS,
                    List.of(event("first", now.minus(Duration.ofHours(5)), "too-old", "k", "v"))))
            .body();

    assertThat(reply.has("writtenCount")).as(reply.toString()).isTrue();
    assertThat(reply.path("writtenCount").asInt()).isZero();
    assertThat(reply.path("writtenIndexes").toString()).isEqualTo("[]");
    assertThat(reply.path("errors")).hasSize(1);
    assertThat(reply.path("errors").get(0).has("index")).as(reply.toString()).isTrue();
    assertThat(reply.path("errors").get(0).path("index").asInt()).isZero();
    assertThat(reply.path("errors").get(0).path("eventId").asText()).isEqualTo("too-old");
  }

  @Test
  void large_values_are_compressed_and_read_back_unchanged() {
    Instant t = now.minusSeconds(150);
    byte[] text = "temporal data in time slices; ".repeat(40_000).getBytes(StandardCharsets.UTF_8);
    byte[] random = new byte[1024 * 1024];
    new Random(7).nextBytes(random);
    ObjectNode e = event("big", t, "big1");
    e.withArray("eventItems")
        .addObject()
        .put("eventItemKey", b64("text"))
        .put("eventItemValue", b64(text));
    e.withArray("eventItems")
        .addObject()
        .put("eventItemKey", b64("random"))
        .put("eventItemValue", b64(random));
    TestServer.Reply reply = server.post("WriteEventRecordsSync", write(NS, List.of(e)));
    assertThat(reply.body().path("writtenCount").asInt()).as(reply.body().toString()).isEqualTo(1);
    JsonNode items =
        server
            .post("ReadEventRecords", read(NS, "big", t, t.plusMillis(1)))
            .body()
            .path("events")
            .get(0)
            .path("eventItems");
    assertThat(Base64.getDecoder().decode(items.get(0).path("eventItemValue").asText()))
        .isEqualTo(random);
    assertThat(Base64.getDecoder().decode(items.get(1).path("eventItemValue").asText()))
        .isEqualTo(text);
    List<String> metadata = new ArrayList<>();
    for (Row table :
        server.cql.execute(
            "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'api_it'")) {
      server
          .cql
          .execute(
              "SELECT value_metadata FROM api_it."
                  + table.getString(0)
                  + " WHERE time_series_id = 'big' ALLOW FILTERING")
          .forEach(r -> metadata.add(String.valueOf(r.getString(0))));
    }
    assertThat(metadata).containsExactlyInAnyOrder("compression=zstd", "");
  }

  /** Values of one event identity as read back, by item key. */
  static List<String> readValues(String series, Instant t) {
    TestServer.Reply reply =
        server.post("ReadEventRecords", read(NS, series, t.minusSeconds(1), t.plusSeconds(1)));
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    List<String> values = new ArrayList<>();
    reply
        .body()
        .path("events")
        .forEach(
            e -> e.path("eventItems").forEach(i -> values.add(i.path("eventItemValue").asText())));
    return values;
  }

  @Test
  void an_overwritten_value_reads_as_the_last_written_whether_compressed_or_not() {
    Instant t = now.minusSeconds(170);
    String zeros = b64(new byte[10_000]);
    server.post(
        "WriteEventRecordsSync",
        write(NS, List.of(event("overwrite", t.minusMillis(5), "before", "k", "v"))));
    for (String value : List.of(zeros, b64("small"), zeros, b64(""), zeros, b64("last"))) {
      ObjectNode e = event("overwrite", t, "same-identity");
      e.withArray("eventItems")
          .addObject()
          .put("eventItemKey", b64("k"))
          .put("eventItemValue", value);
      TestServer.Reply written = server.post("WriteEventRecordsSync", write(NS, List.of(e)));
      assertThat(written.body().path("writtenCount").asInt())
          .as(written.body().toString())
          .isEqualTo(1);
      assertThat(readValues("overwrite", t))
          .as("after writing %d base64 chars", value.length())
          .containsExactly(value, b64("v"));
    }
  }

  @Test
  void a_stale_compression_marker_left_by_an_earlier_version_is_ignored() {
    // Versions that left value_metadata unset on plain values could leave an older value's marker
    // under a newer plain value: the marker's cell is then older than the value's.
    Instant t = now.minusSeconds(180);
    String series = "legacy";
    String id = "stale-marker";
    server.post(
        "WriteEventRecordsSync", write(NS, List.of(event(series, t, id, "k", "placeholder"))));
    String table = null;
    for (JsonNode s :
        server.post("GetNamespace", "{\"namespace\": \"api_it\"}").body().path("timeSlices")) {
      if (!t.isBefore(Instant.parse(s.path("startTime").asText()))
          && t.isBefore(Instant.parse(s.path("endTime").asText()))) {
        table = s.path("table").asText();
      }
    }
    assertThat(table).isNotNull();
    Instant bucket = Instant.ofEpochMilli(Math.floorDiv(t.toEpochMilli(), 600_000L) * 600_000L);
    int eventBucket = io.varve.core.partitioning.EventBuckets.of(series, t.toEpochMilli(), id, 4);
    String key =
        "time_series_id = ? AND time_bucket = ? AND event_bucket = ? AND event_time = ? AND event_id = ?"
            + " AND event_item_key = ?";
    java.nio.ByteBuffer k = java.nio.ByteBuffer.wrap("k".getBytes(StandardCharsets.UTF_8));
    long micros = System.currentTimeMillis() * 1000;
    server.cql.execute(
        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
            "UPDATE api_it."
                + table
                + " USING TIMESTAMP ? SET value_metadata = 'compression=zstd' WHERE "
                + key,
            micros + 1_000_000,
            series,
            bucket,
            eventBucket,
            t,
            id,
            k));
    server.cql.execute(
        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
            "UPDATE api_it."
                + table
                + " USING TIMESTAMP ? SET event_item_value = textAsBlob('small') WHERE "
                + key,
            micros + 2_000_000,
            series,
            bucket,
            eventBucket,
            t,
            id,
            k));
    assertThat(readValues(series, t)).containsExactly(b64("small"));

    // A current marker on bytes that are not zstd is damage: the error names the event, not a frame
    // size.
    server.cql.execute(
        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
            "UPDATE api_it."
                + table
                + " USING TIMESTAMP ? SET value_metadata = 'compression=zstd' WHERE "
                + key,
            micros + 3_000_000,
            series,
            bucket,
            eventBucket,
            t,
            id,
            k));
    TestServer.Reply damaged =
        server.post("ReadEventRecords", read(NS, series, t.minusSeconds(1), t.plusSeconds(1)));
    assertThat(damaged.status()).isEqualTo(500);
    assertThat(damaged.errorMessage())
        .contains("timeSeriesId=legacy")
        .contains("eventId=stale-marker")
        .contains("not a zstd frame");
  }

  @Test
  void page_tokens_are_checked() {
    Instant t = now.minusSeconds(200);
    server.post(
        "WriteEventRecordsSync",
        write(
            NS,
            List.of(
                event("tokens", t, "a", "k", "v"),
                event("tokens", t.plusMillis(1), "b", "k", "v"))));
    ObjectNode request = read(NS, "tokens", t, t.plusSeconds(1)).put("pageSize", 1);
    String token = server.post("ReadEventRecords", request).body().path("nextPageToken").asText();
    assertThat(token).isNotEmpty();

    char[] chars = token.toCharArray();
    chars[chars.length / 2] = chars[chars.length / 2] == 'A' ? 'B' : 'A';
    TestServer.Reply tampered =
        server.post("ReadEventRecords", request.deepCopy().put("pageToken", new String(chars)));
    assertThat(tampered.status()).isEqualTo(400);
    assertThat(tampered.errorField()).isEqualTo("pageToken");

    TestServer.Reply foreign =
        server.post(
            "ReadEventRecords",
            read(NS, "boundaries", t, t.plusSeconds(1)).put("pageToken", token));
    assertThat(foreign.status()).isEqualTo(400);
    assertThat(foreign.errorMessage()).contains("another request");

    TestServer.Reply next =
        server.post("ReadEventRecords", request.deepCopy().put("pageToken", token));
    assertThat(ids(next.body())).containsExactly("a");
  }

  @Test
  void update_changes_partition_settings_of_new_slices_only() {
    String create =
        """
        {"namespace": "api_it_update", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 600, "eventBuckets": 2},
                     "acceptLimit": "1h"}}]}""";
    assertThat(server.post("CreateNamespace", create).status()).isEqualTo(200);
    JsonNode before = server.post("GetNamespace", "{\"namespace\": \"api_it_update\"}").body();
    Set<String> oldTables = new HashSet<>();
    before.path("timeSlices").forEach(s -> oldTables.add(s.path("table").asText()));

    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            """
        {"namespace": "api_it_update", "expected_version": 1, "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "config": {"timePartition": {"secondsPerTimeSlice": 7200, "secondsPerTimeBucket": 1200, "eventBuckets": 8},
                     "acceptLimit": "5h"}}]}""");
    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
    assertThat(updated.body().path("version").asLong()).isEqualTo(2);
    int added = 0;
    for (JsonNode s : updated.body().path("timeSlices")) {
      if (oldTables.contains(s.path("table").asText())) {
        assertThat(s.path("eventBuckets").asInt()).isEqualTo(2);
        assertThat(s.path("secondsPerTimeBucket").asLong()).isEqualTo(600);
      } else {
        added++;
        assertThat(s.path("eventBuckets").asInt()).isEqualTo(8);
        assertThat(s.path("secondsPerTimeBucket").asLong()).isEqualTo(1200);
      }
    }
    assertThat(added).as("slices created for the longer accept limit").isPositive();

    TestServer.Reply stale =
        server.post(
            "UpdateNamespace",
            """
        {"namespace": "api_it_update", "expected_version": 1, "persistence_configuration": [{"id": "PRIMARY_STORAGE"}]}""");
    assertThat(stale.status()).isEqualTo(412);
  }

  @Test
  void list_and_get_namespaces() {
    JsonNode list = server.post("ListNamespaces", "{}").body();
    List<String> names = new ArrayList<>();
    list.path("namespaces").forEach(n -> names.add(n.path("namespace").asText()));
    assertThat(names).contains(NS);
    JsonNode ns = server.post("GetNamespace", "{\"namespace\": \"api_it\"}").body();
    JsonNode primary = ns.path("persistenceConfiguration").get(0);
    assertThat(primary.path("config").path("timePartition").path("secondsPerTimeBucket").asText())
        .isEqualTo("600");
    assertThat(primary.path("config").path("acceptLimit").asText()).isEqualTo("14400s");
    assertThat(server.post("GetNamespace", "{\"namespace\": \"nope\"}").status()).isEqualTo(404);
    assertThat(
            server
                .post(
                    "CreateNamespace",
                    """
        {"namespace": "api_it", "persistence_configuration": [{"id": "PRIMARY_STORAGE"}]}""")
                .status())
        .isEqualTo(409);
  }
}
