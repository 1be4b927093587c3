package io.varve.perf.ts;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.TimeSeriesClient;
import io.varve.client.VarveClient;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.Figures;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The reads of {@code varve perf ts}: a 1-hour window holding 100 events (200 item rows). The
 * headline compares the read of a namespace with one event bucket (one partition, like the raw
 * read) with the raw read; the same read on the 4-event-bucket namespace (4 partitions scanned in
 * parallel and merged) and over HTTP/JSON are printed beside it. The four reads are interleaved, so
 * that every side sees the same machine.
 */
final class ReadPhase {

  private final int reads;
  private final int warmupSeconds;

  /**
   * {@code reads} measured reads per side, after warm-up reads for half of {@code warmupSeconds}
   * (at least a tenth).
   */
  ReadPhase(int reads, int warmupSeconds) {
    this.reads = reads;
    this.warmupSeconds = warmupSeconds;
  }

  void run(
      Figures out,
      VarveServer server,
      TimeSeriesClient varve,
      CqlSession session,
      TimeSeriesHop.Process hop)
      throws Exception {
    long bucket = TimeSeriesBenchmark.BUCKET_MILLIS;
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(2));
    long from = hour.toEpochMilli();
    long to = from + bucket;
    EventGenerator generator = new EventGenerator(1, bucket, hour);
    List<Event> hundred = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      hundred.add(generator.event("reader", from + i * 36_000L, String.format("read-%03d", i)));
    }
    for (String ns : List.of(TimeSeriesBenchmark.NAMESPACE, TimeSeriesBenchmark.READ_NAMESPACE)) {
      VarveClient.join(
          varve.writeEventRecordsSync(
              WriteEventRecordsRequest.newBuilder()
                  .setNamespace(ns)
                  .addAllEvents(hundred)
                  .build()));
    }
    List<Event> onePartition =
        hundred.stream().map(e -> e.toBuilder().setTimeSeriesId("reader-raw").build()).toList();
    RawCql raw =
        new RawCql(
            session,
            TimeSeriesBenchmark.RAW_TABLE,
            DefaultConsistencyLevel.LOCAL_QUORUM,
            TimeSeriesBenchmark.MAX_IN_FLIGHT,
            bucket,
            1);
    raw.write(onePartition).toCompletableFuture().join();

    ReadEventRecordsRequest one = readRequest(TimeSeriesBenchmark.READ_NAMESPACE, from, to);
    ReadEventRecordsRequest four = readRequest(TimeSeriesBenchmark.NAMESPACE, from, to);
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest httpRequest =
        HttpRequest.newBuilder(URI.create(server.apiAddress() + "/v1/ReadEventRecords"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JsonFormat.printer().print(one)))
            .build();

    Histogram varveOne = new Histogram(60_000_000L, 3);
    Histogram varveFour = new Histogram(60_000_000L, 3);
    Histogram varveHttp = new Histogram(60_000_000L, 3);
    Histogram rawRead = new Histogram(60_000_000L, 3);
    Histogram hopRead = new Histogram(60_000_000L, 3);
    // the hop reads the raw client's partition, as the raw read does
    ReadEventRecordsRequest viaHop =
        readRequest("hop", from, to).toBuilder().setTimeSeriesId("reader-raw").build();
    // warm-up: at least a tenth of the measured reads, and until half of --warmup has passed
    long readWarmupEnd = System.nanoTime() + warmupSeconds * 500_000_000L;
    int warmupReads = 0;
    for (int i = 0; i < reads + warmupReads; i++) {
      boolean warming = i < reads / 10 || System.nanoTime() < readWarmupEnd && i == warmupReads;
      if (warming) {
        warmupReads++;
      }
      long t0 = System.nanoTime();
      int rows = raw.read("reader-raw", from, 0, from, to);
      long t1 = System.nanoTime();
      int eventsOne = VarveClient.join(varve.readEventRecords(one)).getEventsCount();
      long t2 = System.nanoTime();
      int eventsFour = VarveClient.join(varve.readEventRecords(four)).getEventsCount();
      long t3 = System.nanoTime();
      int status = http.send(httpRequest, HttpResponse.BodyHandlers.ofString()).statusCode();
      long t4 = System.nanoTime();
      int eventsHop = hop.read(viaHop).getEventsCount();
      long t5 = System.nanoTime();
      if (rows != 200
          || eventsOne != 100
          || eventsFour != 100
          || status != 200
          || eventsHop != 100) {
        throw new IllegalStateException(
            "reads returned raw "
                + rows
                + " rows, "
                + eventsOne
                + " and "
                + eventsFour
                + " events, HTTP "
                + status
                + ", the hop "
                + eventsHop
                + " events");
      }
      if (!warming) {
        rawRead.recordValue((t1 - t0) / 1000);
        varveOne.recordValue((t2 - t1) / 1000);
        varveFour.recordValue((t3 - t2) / 1000);
        varveHttp.recordValue((t4 - t3) / 1000);
        hopRead.recordValue((t5 - t4) / 1000);
      }
    }
    out.put("read.events", 100);
    out.put("read.iterations", reads);
    out.put("read.warmup_iterations", warmupReads);
    out.latency("read.raw", rawRead);
    out.latency("read.varve", varveOne);
    out.latency("read.varve_4_event_buckets", varveFour);
    out.latency("read.varve_http", varveHttp);
    out.latency("read.hop", hopRead);
    out.put(
        "read.p50.ratio",
        (double) varveOne.getValueAtPercentile(50) / rawRead.getValueAtPercentile(50));
    out.put(
        "read.p99.ratio",
        (double) varveOne.getValueAtPercentile(99) / rawRead.getValueAtPercentile(99));
    out.put(
        "read.varve_to_hop.p50.ratio",
        (double) varveOne.getValueAtPercentile(50) / hopRead.getValueAtPercentile(50));
    out.put(
        "read.varve_to_hop.p99.ratio",
        (double) varveOne.getValueAtPercentile(99) / hopRead.getValueAtPercentile(99));
    out.put(
        "read.hop.p99.ratio",
        (double) hopRead.getValueAtPercentile(99) / rawRead.getValueAtPercentile(99));
    out.put(
        "read.p99.ratio_4_event_buckets",
        (double) varveFour.getValueAtPercentile(99) / rawRead.getValueAtPercentile(99));
  }

  private static ReadEventRecordsRequest readRequest(String namespace, long from, long to) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(namespace)
        .setTimeSeriesId("reader")
        .setPageSize(100)
        .setTimeInterval(
            TimeInterval.newBuilder()
                .setStart(Timestamp.newBuilder().setSeconds(from / 1000))
                .setEnd(Timestamp.newBuilder().setSeconds(to / 1000)))
        .build();
  }
}
