package io.varve.perf.ts;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.perf.environment.HopProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The floor of a server hop for {@code perf ts}, as {@code perf kv}'s bare hop is for KeyValue: a
 * gRPC server on Varve's transport (Armeria, HTTP/2, protobuf) and CQL driver that serves
 * WriteEventRecordsSync and ReadEventRecords only, with no validation, admission, metrics, SLO
 * budget, cache or control plane. A write goes to its rows as {@link RawCql} writes them (one
 * unlogged batch per partition, in a table of its own); a read answers the rows of one partition
 * (the time series' first event bucket of the window's hour bucket) as events, newest first, on the
 * event loop of the call. In a JVM of its own with the server's heap and collector: Varve ÷ hop is
 * what Varve itself adds to a write and a read.
 */
final class TimeSeriesHop extends TimeSeriesGrpc.TimeSeriesImplBase {

  private final RawCql writes;
  private final RawCql reads;
  private final long bucketMillis;

  private TimeSeriesHop(RawCql writes, RawCql reads, long bucketMillis) {
    this.writes = writes;
    this.reads = reads;
    this.bucketMillis = bucketMillis;
  }

  /**
   * The process: {@code <cassandra host:port> <write table> <read table> <bucket millis> <event
   * buckets of the writes>}: writes go to the first table (of its own), reads to the raw client's
   * rows of the second (one event bucket, as the read benchmark writes them). Serves on a free port
   * of 127.0.0.1, announced on standard output; stops when its standard input closes.
   */
  public static void main(String[] args) throws Exception {
    long bucketMillis = Long.parseLong(args[3]);
    HopProcess.serve(
        args[0],
        session ->
            new TimeSeriesHop(
                new RawCql(
                    session,
                    args[1],
                    DefaultConsistencyLevel.LOCAL_QUORUM,
                    TimeSeriesBenchmark.MAX_IN_FLIGHT,
                    bucketMillis,
                    Integer.parseInt(args[4])),
                new RawCql(
                    session,
                    args[2],
                    DefaultConsistencyLevel.LOCAL_QUORUM,
                    TimeSeriesBenchmark.MAX_IN_FLIGHT,
                    bucketMillis,
                    1),
                bucketMillis));
  }

  @Override
  public void writeEventRecordsSync(
      WriteEventRecordsRequest request, StreamObserver<WriteEventRecordsResponse> answer) {
    writes
        .write(request.getEventsList())
        .whenComplete(
            (written, error) -> {
              if (error != null) {
                answer.onError(Status.INTERNAL.withDescription(error.toString()).asException());
              } else {
                answer.onNext(
                    WriteEventRecordsResponse.newBuilder()
                        .setWrittenCount(request.getEventsCount())
                        .build());
                answer.onCompleted();
              }
            });
  }

  @Override
  public void readEventRecords(
      ReadEventRecordsRequest request, StreamObserver<ReadEventRecordsResponse> answer) {
    long from = millis(request.getTimeInterval().getStart());
    long to = millis(request.getTimeInterval().getEnd());
    long bucket = Math.floorDiv(from, bucketMillis) * bucketMillis;
    reads
        .readAsync(request.getTimeSeriesId(), bucket, 0, from, to)
        .whenComplete(
            (page, error) -> {
              if (error != null) {
                answer.onError(Status.INTERNAL.withDescription(error.toString()).asException());
                return;
              }
              answer.onNext(events(request.getTimeSeriesId(), page));
              answer.onCompleted();
            });
  }

  /** The rows of one partition, newest first, as events: consecutive rows of one event grouped. */
  private static ReadEventRecordsResponse events(String series, Iterable<Row> rows) {
    ReadEventRecordsResponse.Builder answer = ReadEventRecordsResponse.newBuilder();
    Event.Builder event = null;
    Instant time = null;
    String id = null;
    for (Row row : rows) {
      Instant t = row.getInstant(0);
      String e = row.getString(1);
      if (event == null || !t.equals(time) || !e.equals(id)) {
        if (event != null) {
          answer.addEvents(event);
        }
        time = t;
        id = e;
        event =
            Event.newBuilder()
                .setTimeSeriesId(series)
                .setEventTime(
                    Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()))
                .setEventId(e);
      }
      event.addEventItems(
          EventItem.newBuilder()
              .setEventItemKey(ByteString.copyFrom(row.getByteBuffer(2)))
              .setEventItemValue(ByteString.copyFrom(row.getByteBuffer(3))));
    }
    if (event != null) {
      answer.addEvents(event);
    }
    return answer.build();
  }

  private static long millis(Timestamp t) {
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }

  /** The hop's process, seen from the benchmark, and a client of it. */
  static final class Process implements AutoCloseable {

    private final HopProcess process;
    private final TimeSeriesGrpc.TimeSeriesStub async;
    private final TimeSeriesGrpc.TimeSeriesBlockingStub blocking;

    private Process(HopProcess process) {
      this.process = process;
      this.async = GrpcClients.newClient(process.uri(), TimeSeriesGrpc.TimeSeriesStub.class);
      this.blocking =
          GrpcClients.newClient(process.uri(), TimeSeriesGrpc.TimeSeriesBlockingStub.class);
    }

    /**
     * Starts the hop with {@code jvmOptions} on the Cassandra at {@code cassandra} (host:port): its
     * writes into {@code writeTable} in partitions of {@code bucketMillis} and {@code
     * eventBuckets}, its reads from {@code readTable}.
     */
    static Process start(
        List<String> jvmOptions,
        String cassandra,
        String writeTable,
        String readTable,
        long bucketMillis,
        int eventBuckets,
        Path log)
        throws IOException {
      return new Process(
          HopProcess.start(
              jvmOptions,
              TimeSeriesHop.class,
              List.of(
                  cassandra,
                  writeTable,
                  readTable,
                  Long.toString(bucketMillis),
                  Integer.toString(eventBuckets)),
              log));
    }

    long pid() {
      return process.pid();
    }

    /** A WriteEventRecordsSync of {@code events}; fails unless the hop wrote every one. */
    CompletionStage<Void> write(List<Event> events) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      async.writeEventRecordsSync(
          WriteEventRecordsRequest.newBuilder().setNamespace("hop").addAllEvents(events).build(),
          new StreamObserver<>() {
            @Override
            public void onNext(WriteEventRecordsResponse r) {
              if (r.getWrittenCount() != events.size()) {
                done.completeExceptionally(
                    new IllegalStateException(
                        "the hop wrote " + r.getWrittenCount() + " of " + events.size()));
              }
            }

            @Override
            public void onError(Throwable t) {
              done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
              done.complete(null);
            }
          });
      return done;
    }

    /** A ReadEventRecords, answered in one page. */
    ReadEventRecordsResponse read(ReadEventRecordsRequest request) {
      return blocking.readEventRecords(request);
    }

    @Override
    public void close() throws Exception {
      process.close();
    }
  }
}
