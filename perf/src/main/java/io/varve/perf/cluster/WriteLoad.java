package io.varve.perf.cluster;

import com.google.protobuf.ByteString;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.client.CallSettings;
import io.varve.client.Times;
import io.varve.client.VarveClient;
import io.varve.client.VarveClientBuilder;
import io.varve.local.cassandra.LocalCassandraSecurity;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop writers of WriteEventRecordsSync through the Java client ({@link VarveClient}, over
 * TLS with the token when the setup is secure; no hedging, no retries): {@code concurrency}
 * threads, each sending a batch of events of its own series and waiting for the answer. The rate
 * counts the events acknowledged ({@code writtenCount}) during the measured window only.
 */
final class WriteLoad implements AutoCloseable {

  private static final ByteString KEY = ByteString.copyFromUtf8("k");
  private static final ByteString VALUE =
      ByteString.copyFrom(
          "value-of-about-one-hundred-bytes-------------------------", StandardCharsets.UTF_8);

  private final VarveClient client;
  private final int concurrency;
  private final int batch;
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private String namespace;

  WriteLoad(String endpoint, LocalCassandraSecurity security, int concurrency, int batch) {
    VarveClientBuilder builder =
        VarveClient.builder()
            .endpoint(URI.create(endpoint))
            .callSettings(
                CallSettings.defaults().withoutHedging().withDeadline(Duration.ofSeconds(30)))
            .retries(0, Duration.ofMillis(50), Duration.ofSeconds(1));
    if (security != null) {
      builder.tls(security.caPem()).bearerToken(security.apiToken());
    }
    this.client = builder.build();
    this.concurrency = concurrency;
    this.batch = batch;
  }

  void createNamespace(String name) {
    this.namespace = name;
    VarveClient.join(
        client
            .controlPlane()
            .createNamespace(
                CreateNamespaceRequest.newBuilder()
                    .setNamespace(name)
                    .addPersistenceConfiguration(
                        PersistenceConfiguration.newBuilder()
                            .setId("PRIMARY_STORAGE")
                            .setConfig(
                                StorageConfig.newBuilder()
                                    .setTimePartition(
                                        TimePartition.newBuilder()
                                            .setSecondsPerTimeSlice(86_400)
                                            .setSecondsPerTimeBucket(3600)
                                            .setEventBuckets(4))
                                    .setAcceptLimit(
                                        com.google.protobuf.Duration.newBuilder()
                                            .setSeconds(129_600))))
                    .build(),
                CallSettings.defaults().withDeadline(Duration.ofMinutes(2))));
  }

  /** Writes for {@code warmup}, then measures for {@code duration}; returns events per second. */
  double run(Duration warmup, Duration duration) throws InterruptedException {
    long warmupEnd = System.nanoTime() + warmup.toNanos();
    long end = warmupEnd + duration.toNanos();
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < concurrency; w++) {
      String series = "writer-" + w;
      Thread writer = new Thread(() -> write(series, warmupEnd, end), "perf-cluster-" + w);
      writer.start();
      writers.add(writer);
    }
    for (Thread writer : writers) {
      writer.join();
    }
    return acknowledged.get() / (duration.toNanos() / 1e9);
  }

  long failed() {
    return failed.get();
  }

  @Override
  public void close() {
    client.close();
  }

  private void write(String series, long warmupEnd, long end) {
    while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
      try {
        WriteEventRecordsResponse answer =
            VarveClient.join(client.timeSeries().writeEventRecordsSync(batch(series)));
        if (System.nanoTime() > warmupEnd) {
          acknowledged.addAndGet(answer.getWrittenCount());
        }
      } catch (RuntimeException e) {
        failed.incrementAndGet();
      }
    }
  }

  private WriteEventRecordsRequest batch(String series) {
    Instant time = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
    WriteEventRecordsRequest.Builder request =
        WriteEventRecordsRequest.newBuilder().setNamespace(namespace);
    for (int i = 0; i < batch; i++) {
      request.addEvents(
          Event.newBuilder()
              .setTimeSeriesId(series)
              .setEventTime(Times.timestamp(time.plusMillis(i)))
              .setEventId(UUID.randomUUID().toString())
              .addEventItems(EventItem.newBuilder().setEventItemKey(KEY).setEventItemValue(VALUE)));
    }
    return request.build();
  }
}
