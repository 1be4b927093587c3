package io.varve.verify.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop writers of WriteEventRecordsSync batches, each event recorded in an {@link
 * EventLedger} before it is sent and acknowledged when the answer lists it in {@code
 * writtenIndexes}. A batch whose request failed at the transport (connection refused or reset,
 * timeout) is kept as unanswered; one answered with an error status or with per-event errors is
 * kept for a retry.
 */
final class EventWriters {

  /** Pause of a writer after a failed batch, so that an outage is not a busy loop. */
  private static final long FAILURE_BACKOFF_MS = 500;

  private final VarveClient client;
  private final String namespace;
  private final EventLedger ledger;
  private final int batchSize;
  private final int seriesCount;
  private final boolean stopOnTransportFailure;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicLong sequence = new AtomicLong();
  private final ConcurrentLinkedQueue<List<TestEvent>> unanswered = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<List<TestEvent>> toRetry = new ConcurrentLinkedQueue<>();
  private final AtomicLong errorStatuses = new AtomicLong();
  private final AtomicLong status5xx = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicReference<String> firstError =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final List<Thread> threads = new ArrayList<>();

  EventWriters(
      VarveClient client,
      String namespace,
      EventLedger ledger,
      int batchSize,
      int seriesCount,
      boolean stopOnTransportFailure) {
    this.client = client;
    this.namespace = namespace;
    this.ledger = ledger;
    this.batchSize = batchSize;
    this.seriesCount = seriesCount;
    this.stopOnTransportFailure = stopOnTransportFailure;
  }

  static String series(int index) {
    return "series-" + index;
  }

  void start(int writers) {
    for (int i = 0; i < writers; i++) {
      Thread thread = new Thread(this::loop, "verify-writer-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  /** Asks the writers to stop after their current request and waits for them. */
  void stop(Duration timeout) throws InterruptedException {
    stopping.set(true);
    awaitStopped(timeout);
  }

  /**
   * Waits until every writer has ended (after a transport failure, with {@code
   * stopOnTransportFailure}).
   */
  void awaitStopped(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread thread : threads) {
      thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
  }

  List<List<TestEvent>> unanswered() {
    return List.copyOf(unanswered);
  }

  List<List<TestEvent>> toRetry() {
    return List.copyOf(toRetry);
  }

  /**
   * The first answer that was not a full success (status and body, cut at 300 characters), or null.
   */
  String firstError() {
    String error = firstError.get();
    return error == null || error.length() <= 300 ? error : error.substring(0, 300) + "...";
  }

  /** Waits until some event is acknowledged, so that a fault lands among successful writes. */
  void awaitFirstAcknowledgement(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ledger.acknowledgedCount() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    if (ledger.acknowledgedCount() == 0) {
      throw new IllegalStateException(
          "no write was acknowledged within "
              + timeout.toSeconds()
              + " s; first error: "
              + firstError());
    }
  }

  long errorStatuses() {
    return errorStatuses.get();
  }

  long status5xx() {
    return status5xx.get();
  }

  private void loop() {
    while (!stopping.get()) {
      List<TestEvent> batch = nextBatch();
      ledger.sent(batch);
      try {
        if (!send(batch)) {
          toRetry.add(batch);
          Thread.sleep(FAILURE_BACKOFF_MS);
        }
      } catch (IOException e) {
        unanswered.add(batch);
        if (stopOnTransportFailure) {
          return;
        }
        sleepQuietly();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Sends a batch and acknowledges what the answer lists as written; true if every event was
   * written.
   */
  boolean send(List<TestEvent> batch) throws IOException, InterruptedException {
    byte[] body = TestEvent.writeRequest(namespace, batch).getBytes(StandardCharsets.UTF_8);
    VarveClient.Answer answer = client.post("WriteEventRecordsSync", body, Duration.ofSeconds(30));
    if (!answer.ok()) {
      firstError.compareAndSet(null, answer.status() + " " + answer.body());
      errorStatuses.incrementAndGet();
      if (answer.status() >= 500 && answer.status() != 503) {
        status5xx.incrementAndGet();
      }
      return false;
    }
    BitSet written = VarveClient.writtenIndexes(answer.body());
    if (written.cardinality() < batch.size()) {
      firstError.compareAndSet(null, "200 with per-event errors: " + answer.body());
    }
    for (int i = written.nextSetBit(0); i >= 0; i = written.nextSetBit(i + 1)) {
      ledger.acknowledged(batch.get(i));
    }
    return written.cardinality() == batch.size();
  }

  private List<TestEvent> nextBatch() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<TestEvent> batch = new ArrayList<>(batchSize);
    for (int i = 0; i < batchSize; i++) {
      long n = sequence.getAndIncrement();
      String id = UUID.randomUUID().toString();
      batch.add(
          new TestEvent(
              series((int) (n % seriesCount)),
              now,
              id,
              ("value-" + n + "-" + id).getBytes(StandardCharsets.UTF_8)));
    }
    return batch;
  }

  /** Reads back every series of the run over {@code [from, to)}. */
  List<ReadEvent> readBack(Instant from, Instant to) throws IOException, InterruptedException {
    List<ReadEvent> events = new ArrayList<>();
    for (int s = 0; s < seriesCount; s++) {
      events.addAll(client.readAll(namespace, series(s), from, to));
    }
    return events;
  }

  private static void sleepQuietly() {
    try {
      Thread.sleep(FAILURE_BACKOFF_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
