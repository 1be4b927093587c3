package io.varve.perf.lifecycle;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import io.varve.api.timeseries.v1.CommitSliceRepartitionRequest;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.PrepareSliceRepartitionRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.SliceRepartition;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.CallSettings;
import io.varve.client.VarveClient;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import io.varve.perf.ts.TimeSeriesBenchmark;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * {@code repartition.ratio} and {@code hot_series.read.p99.ratio}. A slice of one hour, one event
 * bucket and one time bucket holds {@link #DENSE} dense series of {@code denseEvents} events each
 * among {@link #SPARSE} sparse ones of {@link #SPARSE_EVENTS}; once it left its write window, the
 * server measures its histogram (under a partition target low enough that the dense series' single
 * partitions exceed it) and recommends more event buckets. The reshaper then copies the slice twice
 * in each of {@link #ROUNDS} rounds, in its own JVM as {@code varve timeseries repartition} runs
 * it: a plain copy into a table of the same layout, and the re-partitioning copy ({@code
 * timeSlice}) into the pending table of the recommended settings; the ratio is of the rows per
 * second each run reports (Spark's start excluded). The slice is then swapped, and a dense series'
 * full read (pages of 1000) from the new table is compared with the same read from the old one,
 * both flushed and settled.
 */
final class RepartitionPhase {

  static final String NAMESPACE = "perf_lifecycle_repartition";
  static final int DENSE = 25;
  static final int SPARSE = 475;
  static final int SPARSE_EVENTS = 20;
  static final int ROUNDS = 2;
  private static final Pattern ROWS_PER_SECOND = Pattern.compile("([0-9,]+) rows/s");

  private final Environment environment;
  private final int reads;
  private final int denseEvents;

  RepartitionPhase(Environment environment, int reads, int denseEvents) {
    this.environment = environment;
    this.reads = reads;
    this.denseEvents = denseEvents;
  }

  void run(
      Figures out,
      VarveClient client,
      CqlSession cql,
      InetSocketAddress cassandra,
      InetSocketAddress jmx,
      Runnable settle)
      throws Exception {
    CallSettings control = CallSettings.defaults().withDeadline(Duration.ofMinutes(2));
    CreateNamespaceRequest create = namespace(Durations.fromHours(6));
    VarveClient.join(client.controlPlane().createNamespace(create, control));
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
    long from = hour.toEpochMilli();
    long to = from + TimeSeriesBenchmark.BUCKET_MILLIS;
    environment.progress(
        DENSE
            + " dense series of "
            + denseEvents
            + " events and "
            + SPARSE
            + " sparse ones of "
            + SPARSE_EVENTS
            + " in one slice");
    write(client, from);
    ClosedSlicePhase.jmx(jmx, "forceKeyspaceFlush", NAMESPACE);
    settle.run();
    VarveClient.join(
        client
            .controlPlane()
            .updateNamespace(
                UpdateNamespaceRequest.newBuilder()
                    .setNamespace(NAMESPACE)
                    .addAllPersistenceConfiguration(
                        namespace(Durations.fromHours(1)).getPersistenceConfigurationList())
                    .build(),
                control));

    environment.progress("the slice's histogram and the recommendation");
    var recommendation = awaitRecommendation(client, control);
    out.put("hot_series.events", denseEvents);
    out.put("hot_series.recommended.event_buckets", recommendation.getEventBuckets());
    out.put(
        "hot_series.recommended.seconds_per_time_bucket", recommendation.getSecondsPerTimeBucket());
    ReadEventRecordsRequest read =
        ReadEventRecordsRequest.newBuilder()
            .setNamespace(NAMESPACE)
            .setTimeSeriesId("dense-0")
            .setTimeInterval(
                TimeInterval.newBuilder()
                    .setStart(Timestamps.fromMillis(from))
                    .setEnd(Timestamps.fromMillis(to)))
            .setPageSize(1000)
            .build();
    Histogram before = measure(client, read);

    SliceRepartition pending =
        VarveClient.join(
            client
                .controlPlane()
                .prepareSliceRepartition(
                    PrepareSliceRepartitionRequest.newBuilder()
                        .setNamespace(NAMESPACE)
                        .setSliceStart(Timestamps.fromMillis(from))
                        .build(),
                    control));
    String keyspace = pending.getKeyspace();
    String plain = "plain_copy";
    cql.execute(
        SimpleStatement.newInstance(
                "CREATE TABLE IF NOT EXISTS "
                    + keyspace
                    + "."
                    + plain
                    + " (time_series_id text, time_bucket timestamp, event_bucket int, event_time"
                    + " timestamp, event_id text, event_item_key blob, event_item_value blob,"
                    + " value_metadata text, PRIMARY KEY ((time_series_id, time_bucket,"
                    + " event_bucket), event_time, event_id, event_item_key)) WITH CLUSTERING"
                    + " ORDER BY (event_time DESC, event_id ASC, event_item_key ASC)")
            .setTimeout(Duration.ofMinutes(1)));
    Path home = Path.of(System.getProperty("varve.home", "."));
    // the jobs' files and savepoints, fresh for each run
    Path work = environment.home().resolve(".varve/perf-lifecycle-repartition");
    if (Files.exists(work)) {
      try (var old = Files.walk(work)) {
        for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    double plainRate = 0;
    double repartitionRate = 0;
    for (int round = 0; round < ROUNDS; round++) {
      environment.progress("round " + (round + 1) + " of " + ROUNDS + ": plain copy, re-partition");
      for (String table : List.of(plain, pending.getTargetTable())) {
        cql.execute(
            SimpleStatement.newInstance("TRUNCATE " + keyspace + "." + table)
                .setTimeout(Duration.ofMinutes(1)));
        boolean repartition = !table.equals(plain);
        Path job =
            job(
                work.resolve("round" + round + "-" + table),
                cassandra,
                pending,
                table,
                repartition);
        double rate = copy(home, job);
        if (repartition) {
          repartitionRate += rate / ROUNDS;
        } else {
          plainRate += rate / ROUNDS;
        }
      }
    }
    out.put("repartition.rows", (long) DENSE * denseEvents + (long) SPARSE * SPARSE_EVENTS);
    out.put("repartition.copy.rows_per_second", Math.round(plainRate));
    out.put("repartition.rows_per_second", Math.round(repartitionRate));
    out.put("repartition.ratio", repartitionRate / plainRate);

    VarveClient.join(
        client
            .controlPlane()
            .commitSliceRepartition(
                CommitSliceRepartitionRequest.newBuilder()
                    .setNamespace(NAMESPACE)
                    .setSliceStart(pending.getSliceStart())
                    .setTable(pending.getTargetTable())
                    .build(),
                control));
    ClosedSlicePhase.jmx(jmx, "forceKeyspaceFlush", NAMESPACE);
    settle.run();
    Histogram after = measure(client, read);
    out.latency("hot_series.read.before", before);
    out.latency("hot_series.read.after", after);
    out.put(
        "hot_series.read.p99.ratio",
        (double) after.getValueAtPercentile(99) / before.getValueAtPercentile(99));
  }

  private void write(VarveClient client, long from) {
    WriteEventRecordsRequest.Builder batch =
        WriteEventRecordsRequest.newBuilder().setNamespace(NAMESPACE);
    List<String[]> series = new ArrayList<>();
    for (int s = 0; s < DENSE; s++) {
      series.add(new String[] {"dense-" + s, Integer.toString(denseEvents)});
    }
    for (int s = 0; s < SPARSE; s++) {
      series.add(new String[] {"sparse-" + s, Integer.toString(SPARSE_EVENTS)});
    }
    for (String[] s : series) {
      int n = Integer.parseInt(s[1]);
      for (int i = 0; i < n; i++) {
        batch.addEvents(
            Event.newBuilder()
                .setTimeSeriesId(s[0])
                .setEventTime(
                    Timestamps.fromMillis(from + i * (TimeSeriesBenchmark.BUCKET_MILLIS / n)))
                .setEventId(String.format("%s-%06d", s[0], i))
                .addEventItems(
                    EventItem.newBuilder()
                        .setEventItemKey(ByteString.copyFromUtf8("payload"))
                        .setEventItemValue(ByteString.copyFromUtf8("x".repeat(100)))));
        if (batch.getEventsCount() == 500) {
          VarveClient.join(client.timeSeries().writeEventRecordsSync(batch.build()));
          batch.clearEvents();
        }
      }
    }
    if (batch.getEventsCount() > 0) {
      VarveClient.join(client.timeSeries().writeEventRecordsSync(batch.build()));
    }
  }

  private io.varve.api.timeseries.v1.PartitionRecommendation awaitRecommendation(
      VarveClient client, CallSettings control) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      var listed = VarveClient.join(client.controlPlane().listTimeSlices(NAMESPACE, control));
      if (listed.hasRecommendation()) {
        return listed.getRecommendation();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("no histogram of the slice within 3 minutes");
      }
      Thread.sleep(500); // between looks at the slices
    }
  }

  /** Full reads of the dense series, page after page; a warm-up of a fifth first. */
  private Histogram measure(VarveClient client, ReadEventRecordsRequest read) {
    Histogram histogram = new Histogram(60_000_000L, 3);
    for (int i = -reads / 5; i < reads; i++) {
      long t0 = System.nanoTime();
      int found = 0;
      ReadEventRecordsRequest page = read;
      while (true) {
        ReadEventRecordsResponse answer =
            VarveClient.join(client.timeSeries().readEventRecords(page));
        found += answer.getEventsCount();
        if (answer.getNextPageToken().isEmpty()) {
          break;
        }
        page = read.toBuilder().setPageToken(answer.getNextPageToken()).build();
      }
      if (found != denseEvents) {
        throw new IllegalStateException("a read returned " + found + " events, not " + denseEvents);
      }
      if (i >= 0) {
        histogram.recordValue((System.nanoTime() - t0) / 1000);
      }
    }
    return histogram;
  }

  /** The reshaper's job: the slice table into {@code table}, re-partitioned or as it is. */
  private static Path job(
      Path dir, InetSocketAddress cassandra, SliceRepartition p, String table, boolean repartition)
      throws Exception {
    Files.createDirectories(dir);
    List<String> lines = new ArrayList<>();
    for (String side : List.of("source", "target")) {
      lines.add(side + ":");
      lines.add("  host: \"" + cassandra.getHostString() + "\"");
      lines.add("  port: " + cassandra.getPort());
      lines.add("  localDC: datacenter1");
      lines.add("  keyspace: " + p.getKeyspace());
      lines.add("  table: " + (side.equals("source") ? p.getSourceTable() : table));
      if (side.equals("source")) {
        lines.add("  preserveTimestamps: true");
      }
    }
    if (repartition) {
      lines.add("timeSlice:");
      lines.add("  start: \"" + Timestamps.toString(p.getSliceStart()) + "\"");
      lines.add("  end: \"" + Timestamps.toString(p.getSliceEnd()) + "\"");
      lines.add("  secondsPerTimeBucket: " + p.getSecondsPerTimeBucket());
      lines.add("  eventBuckets: " + p.getEventBuckets());
    }
    lines.add("savepoints:");
    lines.add("  path: \"" + dir.toAbsolutePath() + "\"");
    Path file = dir.resolve("job.yaml");
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }

  /** Runs the reshaper's copy in its own JVM; the rows per second its summary reports. */
  private double copy(Path home, Path job) throws Exception {
    List<String> command =
        io.varve.cli.ReshaperProcess.command(home, List.of("migrate", "--config", job.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    double rate = -1;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Matcher m = ROWS_PER_SECOND.matcher(line);
        if (line.startsWith("migrate: done") && m.find()) {
          rate = Double.parseDouble(m.group(1).replace(",", ""));
        }
      }
    }
    int status = process.waitFor();
    if (status != 0 || rate < 0) {
      throw new IllegalStateException("the reshaper's copy of " + job + " ended with " + status);
    }
    return rate;
  }

  private static CreateNamespaceRequest namespace(com.google.protobuf.Duration acceptLimit) {
    return ClosedSlicePhase.hourly(NAMESPACE, acceptLimit);
  }
}
