package io.varve.perf.lifecycle;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import io.varve.api.timeseries.v1.Compaction;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.CallSettings;
import io.varve.client.VarveClient;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import io.varve.perf.ts.TimeSeriesBenchmark;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.HdrHistogram.Histogram;

/**
 * {@code closed_slice.read.p99.ratio}: the read of a slice that left its write window, after the
 * switch of its table to the read-optimised compaction and a major compaction, divided by the same
 * read before. The slice's hour is written in {@link #ROUNDS} rounds, each of every event again in
 * a new order with new values (overwrites, out of order), each flushed to an sstable of its own
 * over JMX, so that before the switch a read merges one sstable per round, as time-windowed
 * compaction leaves them. The namespace asks for no switch ({@code UNCHANGED}) while the first
 * reads are measured, then for {@code AUTO}: the server switches the table within a maintenance
 * cycle, the benchmark runs the major compaction an operator would ({@code nodetool compact}) and
 * waits for Cassandra to settle. Reads go to the server without the cache.
 */
final class ClosedSlicePhase {

  static final String NAMESPACE = "perf_lifecycle_closed";
  static final int ROUNDS = 8;

  private final Environment environment;
  private final int reads;
  private final int events;

  ClosedSlicePhase(Environment environment, int reads, int events) {
    this.environment = environment;
    this.reads = reads;
    this.events = events;
  }

  void run(Figures out, VarveClient client, InetSocketAddress jmx, Runnable settle)
      throws Exception {
    CallSettings control = CallSettings.defaults().withDeadline(Duration.ofMinutes(2));
    CreateNamespaceRequest create = namespace("UNCHANGED", Durations.fromHours(6));
    VarveClient.join(client.controlPlane().createNamespace(create, control));
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
    long from = hour.toEpochMilli();
    long to = from + TimeSeriesBenchmark.BUCKET_MILLIS;
    Random random = new Random(7);
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      order.add(i);
    }
    environment.progress(
        ROUNDS + " rounds of " + events + " events, overwritten out of order, each flushed");
    for (int round = 0; round < ROUNDS; round++) {
      Collections.shuffle(order, random);
      WriteEventRecordsRequest.Builder batch =
          WriteEventRecordsRequest.newBuilder().setNamespace(NAMESPACE);
      for (int i : order) {
        batch.addEvents(event(from + i * (TimeSeriesBenchmark.BUCKET_MILLIS / events), i, round));
        if (batch.getEventsCount() == 100) {
          VarveClient.join(client.timeSeries().writeEventRecordsSync(batch.build()));
          batch.clearEvents();
        }
      }
      if (batch.getEventsCount() > 0) {
        VarveClient.join(client.timeSeries().writeEventRecordsSync(batch.build()));
      }
      jmx(jmx, "forceKeyspaceFlush", NAMESPACE);
    }
    settle.run();
    // immutable from now on: writes accepted one hour back only
    VarveClient.join(
        client
            .controlPlane()
            .updateNamespace(update(namespace("UNCHANGED", Durations.fromHours(1))), control));
    ReadEventRecordsRequest read =
        ReadEventRecordsRequest.newBuilder()
            .setNamespace(NAMESPACE)
            .setTimeSeriesId("closed")
            .setTimeInterval(
                TimeInterval.newBuilder()
                    .setStart(Timestamps.fromMillis(from))
                    .setEnd(Timestamps.fromMillis(to)))
            .setPageSize(Math.max(events, 1))
            .build();
    Histogram before = measure(client, read);

    environment.progress("the slice's switch, a major compaction, Cassandra settling");
    VarveClient.join(
        client
            .controlPlane()
            .updateNamespace(update(namespace("AUTO", Durations.fromHours(1))), control));
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    String table = null;
    while (table == null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the slice was not switched within 3 minutes");
      }
      for (var slice :
          VarveClient.join(client.controlPlane().listTimeSlices(NAMESPACE, control))
              .getTimeSlicesList()) {
        if (Timestamps.toMillis(slice.getStartTime()) <= from
            && Timestamps.toMillis(slice.getEndTime()) > from
            && !slice.getCompaction().equals("TimeWindowCompactionStrategy")) {
          table = slice.getTable();
          out.put("closed_slice.compaction", slice.getCompaction());
        }
      }
      Thread.sleep(500); // between looks at the slices
    }
    jmx(jmx, "forceKeyspaceCompaction", NAMESPACE, table);
    settle.run();
    Histogram after = measure(client, read);

    out.put("closed_slice.rounds", ROUNDS);
    out.put("closed_slice.events", events);
    out.latency("closed_slice.read.before", before);
    out.latency("closed_slice.read.after", after);
    out.put(
        "closed_slice.read.p99.ratio",
        (double) after.getValueAtPercentile(99) / before.getValueAtPercentile(99));
  }

  private Histogram measure(VarveClient client, ReadEventRecordsRequest read) {
    for (int i = 0; i < reads / 5; i++) { // warm-up
      check(VarveClient.join(client.timeSeries().readEventRecords(read)).getEventsCount());
    }
    Histogram histogram = new Histogram(60_000_000L, 3);
    for (int i = 0; i < reads; i++) {
      long t0 = System.nanoTime();
      int found = VarveClient.join(client.timeSeries().readEventRecords(read)).getEventsCount();
      histogram.recordValue((System.nanoTime() - t0) / 1000);
      check(found);
    }
    return histogram;
  }

  private void check(int found) {
    if (found != events) {
      throw new IllegalStateException("a read returned " + found + " events, not " + events);
    }
  }

  private static Event event(long millis, int i, int round) {
    return Event.newBuilder()
        .setTimeSeriesId("closed")
        .setEventTime(Timestamps.fromMillis(millis))
        .setEventId(String.format("closed-%05d", i))
        .addEventItems(
            EventItem.newBuilder()
                .setEventItemKey(ByteString.copyFromUtf8("payload"))
                .setEventItemValue(
                    ByteString.copyFromUtf8("round " + round + " " + "x".repeat(90))))
        .build();
  }

  /**
   * The phase's namespace: hourly slices (so that the hour written leaves its write window), one
   * event bucket, the given compaction and accept limit.
   */
  private static CreateNamespaceRequest namespace(
      String closed, com.google.protobuf.Duration acceptLimit) {
    CreateNamespaceRequest base = hourly(NAMESPACE, acceptLimit);
    PersistenceConfiguration primary = base.getPersistenceConfiguration(0);
    return base.toBuilder()
        .setPersistenceConfiguration(
            0,
            primary.toBuilder()
                .setConfig(
                    primary.getConfig().toBuilder()
                        .setCompaction(Compaction.newBuilder().setClosed(closed))))
        .build();
  }

  /** A namespace of hourly slices, one time bucket and one event bucket each. */
  static CreateNamespaceRequest hourly(String name, com.google.protobuf.Duration acceptLimit) {
    CreateNamespaceRequest base = TimeSeriesBenchmark.namespace(name, 1);
    PersistenceConfiguration primary = base.getPersistenceConfiguration(0);
    return base.toBuilder()
        .setPersistenceConfiguration(
            0,
            primary.toBuilder()
                .setConfig(
                    primary.getConfig().toBuilder()
                        .setTimePartition(
                            TimePartition.newBuilder()
                                .setSecondsPerTimeSlice(3600)
                                .setSecondsPerTimeBucket(3600)
                                .setEventBuckets(1))
                        .setAcceptLimit(acceptLimit)))
        .build();
  }

  private static UpdateNamespaceRequest update(CreateNamespaceRequest create) {
    return UpdateNamespaceRequest.newBuilder()
        .setNamespace(create.getNamespace())
        .addAllPersistenceConfiguration(create.getPersistenceConfigurationList())
        .build();
  }

  /** Calls a StorageService operation on the node's JMX (local, no credentials). */
  static void jmx(InetSocketAddress jmx, String operation, String keyspace, String... tables)
      throws Exception {
    JMXServiceURL url =
        new JMXServiceURL(
            "service:jmx:rmi:///jndi/rmi://"
                + jmx.getHostString()
                + ":"
                + jmx.getPort()
                + "/jmxrmi");
    try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      ObjectName storage = new ObjectName("org.apache.cassandra.db:type=StorageService");
      if (operation.equals("forceKeyspaceFlush")) {
        server.invoke(
            storage,
            operation,
            new Object[] {keyspace, tables},
            new String[] {String.class.getName(), String[].class.getName()});
      } else {
        server.invoke(
            storage,
            operation,
            new Object[] {false, keyspace, tables},
            new String[] {"boolean", String.class.getName(), String[].class.getName()});
      }
    }
  }
}
