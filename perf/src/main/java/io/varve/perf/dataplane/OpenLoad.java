package io.varve.perf.dataplane;

import io.grpc.Status;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.TimeSeriesClient;
import io.varve.perf.ts.EventGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Fire-and-forget writes ({@code WriteEventRecords}) sent at a fixed rate, whatever the answers: an
 * open loop, as traffic from many independent callers arrives. Requests leave on a schedule of
 * {@code batch ÷ rate} seconds each; when {@code maxInFlight} are unanswered the sender waits, and
 * the rate actually offered (printed beside the asked one) falls short: on a small machine the
 * client itself is the limit. Sending stops at the end of the duration, behind the schedule or not.
 *
 * <p>The client must not retry: every event is counted once, as accepted (queued), refused ({@code
 * RESOURCE_EXHAUSTED}, a full buffer) or failed (any other answer, counted by its status; events an
 * answer did not queue count as {@code FAILED_PRECONDITION}).
 */
final class OpenLoad {

  /** What the load sent and what came of it. */
  record Result(
      long sent, long accepted, long refused, Map<Status.Code, Long> failures, double seconds) {

    double offeredPerSecond() {
      return sent / seconds;
    }

    long failed() {
      return failures.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final TimeSeriesClient client;
  private final String namespace;
  private final int batch;
  private final int maxInFlight;

  OpenLoad(TimeSeriesClient client, String namespace, int batch, int maxInFlight) {
    this.client = client;
    this.namespace = namespace;
    this.batch = batch;
    this.maxInFlight = maxInFlight;
  }

  /** Sends {@code eventsPerSecond} for {@code duration}, ids {@code <prefix><n>}; waits for all. */
  Result run(EventGenerator events, String prefix, double eventsPerSecond, Duration duration)
      throws InterruptedException {
    Semaphore permits = new Semaphore(maxInFlight);
    AtomicLong accepted = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    Map<Status.Code, Long> failures = new ConcurrentSkipListMap<>();
    long interval = (long) (batch * 1e9 / eventsPerSecond);
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    long sent = 0;
    // stops at the end of the duration, also when behind the schedule: the load lasts what was
    // asked
    for (long next = start; next < end && System.nanoTime() < end; next += interval) {
      LockSupport.parkNanos(next - System.nanoTime());
      permits.acquire();
      List<Event> batchEvents = events.batch(prefix, sent, batch);
      sent += batchEvents.size();
      client
          .writeEventRecords(
              WriteEventRecordsRequest.newBuilder()
                  .setNamespace(namespace)
                  .addAllEvents(batchEvents)
                  .build())
          .whenComplete(
              (answer, error) -> {
                if (error == null) {
                  accepted.addAndGet(answer.getQueuedCount());
                  if (answer.getQueuedCount() < batchEvents.size()) {
                    failures.merge(
                        Status.Code.FAILED_PRECONDITION,
                        (long) batchEvents.size() - answer.getQueuedCount(),
                        Long::sum);
                  }
                } else if (Status.fromThrowable(error).getCode()
                    == Status.Code.RESOURCE_EXHAUSTED) {
                  refused.addAndGet(batchEvents.size());
                } else {
                  failures.merge(
                      Status.fromThrowable(error).getCode(), (long) batchEvents.size(), Long::sum);
                }
                permits.release();
              });
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!permits.tryAcquire(maxInFlight, 2, TimeUnit.MINUTES)) {
      throw new IllegalStateException("writes still unanswered 2 minutes after the load ended");
    }
    return new Result(sent, accepted.get(), refused.get(), new TreeMap<>(failures), seconds);
  }
}
