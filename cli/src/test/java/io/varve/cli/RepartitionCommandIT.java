package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.command.ExitStatus;
import io.varve.local.testing.TestCassandra;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
 * {@code varve timeseries repartition} end to end, on the real test Cassandra: a server in this JVM
 * (its clock moved forward), the reshaper in its own JVM from {@code spark/target} as {@code
 * ./varve} runs it. A slice still accepting writes is refused (2); a run whose copy stops (a row
 * outside the slice, with no bad row allowed) swaps nothing (3) and readers see the old table; run
 * again once the row is gone, it resumes, validates and swaps (0), while readers paging through the
 * slice read exactly the events written before, during and after.
 */
class RepartitionCommandIT {

  static final String NS = "repartition_cli_it";
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final Path HOME = Path.of("").toAbsolutePath().getParent();

  /** The system clock moved by an offset the test sets. */
  static final class Moved extends Clock {
    volatile Duration offset = Duration.ZERO;

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.now().plus(offset);
    }
  }

  static final Moved clock = new Moved();
  static CqlSession cql;
  static VarveServer server;

  @BeforeAll
  static void start() throws Exception {
    cql =
        CqlSession.builder()
            .addContactPoint(TestCassandra.contactPoint())
            .withLocalDatacenter("datacenter1")
            .build();
    for (String ks : List.of(NS, "varve_repartition_cli_it")) {
      cql.execute(
          SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + ks)
              .setTimeout(Duration.ofSeconds(60)));
    }
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(
        config,
        """
        timeseries:
          sliceMaintenanceInterval: 1s
          histogram:
            enabled: false
        """);
    ServerSettings base = ServerSettings.load(config);
    CassandraSettings c =
        base.cassandra()
            .withContactPoints(List.of(TestCassandra.contactPoint()))
            .withMetadataKeyspace("varve_repartition_cli_it");
    server =
        VarveServer.start(
            base.toBuilder().cassandra(c).port(0).shutdown(ServerSettings.Shutdown.AT_ONCE).build(),
            clock);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (cql != null) {
      cql.close();
    }
  }

  static String base() {
    return "http://127.0.0.1:" + server.port();
  }

  static JsonNode post(String rpc, String body) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(base() + "/v1/" + rpc))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode json = JSON.readTree(response.body());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(rpc + ": " + response.statusCode() + " " + json);
    }
    return json;
  }

  /** The command's exit status and what it printed on standard error. */
  record Run(int status, String err) {}

  static Run repartition(Instant slice, Path work, Path job) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "timeseries",
                "repartition",
                "--namespace",
                NS,
                "--slice",
                slice.toString(),
                "--event-buckets",
                "4",
                "--seconds-per-time-bucket",
                "600",
                "--server",
                base(),
                "--cassandra",
                TestCassandra.contactPoint().getHostString()
                    + ":"
                    + TestCassandra.contactPoint().getPort(),
                "--datacenter",
                "datacenter1",
                "--work-dir",
                work.toString()));
    if (job != null) {
      args.addAll(List.of("--job", job.toString()));
    }
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    String home = System.getProperty("varve.home");
    System.setProperty("varve.home", HOME.toString());
    try {
      return new Run(
          VarveCli.run(args.toArray(String[]::new)), captured.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(err);
      err.print(captured.toString(StandardCharsets.UTF_8));
      if (home == null) {
        System.clearProperty("varve.home");
      } else {
        System.setProperty("varve.home", home);
      }
    }
  }

  static List<String> pagedIds(Instant start, Instant end) {
    List<String> ids = new ArrayList<>();
    String token = "";
    try {
      do {
        JsonNode page =
            post(
                "ReadEventRecords",
                """
                {"namespace": "%s", "timeSeriesId": "s", "pageSize": 50, "pageToken": "%s",
                 "timeInterval": {"start": "%s", "end": "%s"}}"""
                    .formatted(NS, token, start, end));
        page.path("events").forEach(e -> ids.add(e.path("eventId").asText()));
        token = page.path("nextPageToken").asText();
      } while (!token.isEmpty());
    } catch (Exception e) {
      ids.add(e.toString());
    }
    return ids;
  }

  static JsonNode sliceAt(Instant start) throws Exception {
    for (JsonNode s :
        post("ListTimeSlices", "{\"namespace\": \"" + NS + "\"}").path("timeSlices")) {
      if (Instant.parse(s.path("startTime").asText()).equals(start)) {
        return s;
      }
    }
    throw new AssertionError("no slice at " + start);
  }

  @Test
  void a_closed_slice_is_rewritten_validated_and_swapped_and_a_failed_run_resumes()
      throws Exception {
    assertThat(HOME.resolve("spark/target/varve-reshaper.jar"))
        .as("the reshaper, built (./varve test builds it before the tests)")
        .exists();
    post(
        "CreateNamespace",
        """
        {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600,
            "eventBuckets": 1}, "acceptLimit": "2h"}}]}"""
            .formatted(NS));
    Instant t = clock.instant().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS);
    Instant start = t.truncatedTo(ChronoUnit.HOURS);
    Instant end = start.plus(Duration.ofHours(1));
    Set<String> expected = new TreeSet<>();
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      Instant at = start.plusMillis(3_599_999L * i / 399);
      if (events.length() > 0) {
        events.append(',');
      }
      events.append(
          """
          {"timeSeriesId": "s", "eventTime": "%s", "eventId": "e%d",
           "eventItems": [{"eventItemKey": "aw==", "eventItemValue": "dg=="}]},
          {"timeSeriesId": "o%d", "eventTime": "%s", "eventId": "o%d",
           "eventItems": [{"eventItemKey": "aw==", "eventItemValue": "dg=="}]}"""
              .formatted(at, i, i % 9, at, i));
      expected.add("e" + i);
      if (i % 100 == 99) {
        post(
            "WriteEventRecordsSync",
            "{\"namespace\": \"" + NS + "\", \"events\": [" + events + "]}");
        events.setLength(0);
      }
    }
    String source = sliceAt(start).path("table").asText();
    Path work = Files.createTempDirectory("repartition");

    Path hosts =
        Files.writeString(work.resolve("hosts.yaml"), "source:\n  host: 10.0.0.1\n  port: 9042\n");
    Run twice = repartition(start, work, hosts);
    assertThat(twice.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(twice.err()).contains("--cassandra").contains("source.host 10.0.0.1");
    Path tables = Files.writeString(work.resolve("tables.yaml"), "target:\n  table: elsewhere\n");
    assertThat(repartition(start, work, tables).err()).contains("target.table");

    Run early = repartition(start, work, null);
    assertThat(early.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(early.err()).contains("still accepts writes");

    clock.offset = Duration.ofHours(3).plusMinutes(30);
    // a row the slice cannot hold, written behind Varve's back: the copy stops on it
    cql.execute(
        "INSERT INTO "
            + NS
            + "."
            + source
            + " (time_series_id, time_bucket, event_bucket, event_time, event_id, event_item_key,"
            + " event_item_value, value_metadata) VALUES ('stray', ?, 0, ?, 'x', 0x00, 0x00, '')",
        start,
        end.plusSeconds(1));
    Path strict = Files.writeString(work.resolve("strict.yaml"), "failures:\n  maxBadRows: 0\n");

    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
    AtomicInteger reads = new AtomicInteger();
    Thread reader =
        new Thread(
            () -> {
              while (!stop.get()) {
                List<String> ids = pagedIds(start, end);
                reads.incrementAndGet();
                if (!(ids.size() == expected.size() && new TreeSet<>(ids).equals(expected))) {
                  wrong.add(ids.size() + ": " + ids);
                }
                try {
                  Thread.sleep(20); // reads all through the run, leaving the cores to the copy
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    reader.start();
    try {
      Run failed = repartition(start, work, strict);
      assertThat(failed.status()).isEqualTo(ExitStatus.ABORTED_TOO_MANY_ERRORS.code());
      assertThat(failed.err()).contains("nothing is swapped");
      assertThat(sliceAt(start).path("table").asText()).isEqualTo(source);
      String pending = sliceAt(start).path("pendingTable").asText();
      assertThat(pending).isNotEmpty();

      cql.execute(
          "DELETE FROM "
              + NS
              + "."
              + source
              + " WHERE time_series_id = 'stray' AND time_bucket = ? AND event_bucket = 0",
          start);
      Run done = repartition(start, work, strict);
      assertThat(done.status()).as(done.err()).isEqualTo(ExitStatus.OK.code());
      JsonNode slice = sliceAt(start);
      assertThat(slice.path("table").asText()).isEqualTo(pending);
      assertThat(slice.path("eventBuckets").asInt()).isEqualTo(4);
      assertThat(slice.path("secondsPerTimeBucket").asLong()).isEqualTo(600);
      assertThat(slice.path("previousTable").asText()).isEqualTo(source);
      int after = reads.get();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (reads.get() < after + 3 && System.nanoTime() < deadline) {
        Thread.sleep(50); // reads of the new table
      }
    } finally {
      stop.set(true);
      reader.join();
    }
    assertThat(reads.get()).isGreaterThan(3);
    assertThat(wrong).as("reads before, during and after the swap").isEmpty();
    assertThat(pagedIds(start, end)).hasSize(400);
    // the rows of the new table are in the new buckets: ten-minute buckets, four event buckets
    long partitions =
        cql
            .execute(
                "SELECT DISTINCT time_series_id, time_bucket, event_bucket FROM "
                    + NS
                    + "."
                    + sliceAt(start).path("table").asText())
            .all()
            .stream()
            .filter(r -> r.getString(0).equals("s"))
            .count();
    assertThat(partitions).isEqualTo(6 * 4);
  }
}
