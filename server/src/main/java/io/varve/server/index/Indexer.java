package io.varve.server.index;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.error.Causes;
import io.varve.core.error.StorageException;
import io.varve.core.event.Event;
import io.varve.core.index.IndexDocument;
import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import io.varve.core.index.IndexedEvent;
import io.varve.opensearch.OpenSearchSettings;
import io.varve.server.health.BackgroundWorker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds the index store after durable primary writes: a bounded queue drained in bulk requests, a
 * bounded number in flight. The queue is bounded by a count of events and by the heap its events
 * hold ({@link Event#heapBytes()}), the bulk requests being sent or retried included; a bulk
 * request by a count and by bytes. Never blocks or fails a write: when the queue is full (index
 * store down or slower than the writes) further events are dropped and counted, and a backfill
 * indexes them later. A bulk request the store could not take (unreachable, overloaded) is retried
 * with backoff until it succeeds or the server stops. Thread-safe.
 *
 * <p>Metrics: {@code varve_index_queue_events} and {@code varve_index_queue_bytes} (gauges, the
 * bytes with the bulk requests in flight), {@code varve_index_indexed_events_total}, {@code
 * varve_index_dropped_events_total}, {@code varve_index_failed_events_total}, {@code
 * varve_index_skipped_events_total} (older than the index's acceptLimit, or in a closed index
 * slice), {@code varve_index_unparsable_values_total}; the dropped, skipped and unparsable counters
 * are tagged with the namespace (unparsable also with the field).
 */
public final class Indexer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Indexer.class);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  /**
   * The heap a queued event adds to its own: its {@link Pending} (24) and its slot in the queue
   * (8).
   */
  static final long PENDING_BYTES = 24 + 8;

  /**
   * How much the indexer holds and sends at once.
   *
   * @param queueEvents events queued, at most
   * @param queueBytes heap the queued events and the bulk requests in flight may hold, at most
   * @param bulkEvents documents per bulk request, at most
   * @param bulkBytes heap of the events of one bulk request, at most (an event larger than this
   *     goes alone)
   * @param bulkConcurrency bulk requests in flight at once
   */
  public record Limits(
      int queueEvents, long queueBytes, int bulkEvents, long bulkBytes, int bulkConcurrency) {

    /** The limits of the {@code opensearch} settings. */
    public static Limits of(OpenSearchSettings settings) {
      return new Limits(
          settings.queueCapacity(),
          settings.queueBytes(),
          settings.bulkMaxEvents(),
          settings.bulkMaxBytes(),
          settings.bulkConcurrency());
    }
  }

  private record Pending(IndexSpec spec, Event event, long bytes) {
    Pending(IndexSpec spec, Event event) {
      this(spec, event, PENDING_BYTES + event.heapBytes());
    }
  }

  /** What indexing a set of events did. */
  public record Outcome(long indexed, long failed, long unparsable) {}

  private final IndexStore store;
  private final MeterRegistry metrics;
  private final Clock clock;
  private final BlockingQueue<Pending> queue;
  private final AtomicLong heldBytes = new AtomicLong();
  private final long maxBytes;
  private final int bulkMax;
  private final long bulkMaxBytes;
  private final Semaphore inFlight;
  private final int concurrency;
  private final Thread drainer;
  private final BackgroundWorker worker;
  private final Map<String, AtomicLong> lastWarning = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param worker where the drainer's progress and failures are recorded (metrics and health): it
   *     completes a cycle on every poll of the queue, so it goes stale when all bulk slots stay
   *     taken
   */
  public Indexer(
      IndexStore store,
      MeterRegistry metrics,
      Clock clock,
      Limits limits,
      BackgroundWorker worker) {
    this.worker = worker;
    this.store = store;
    this.metrics = metrics;
    this.clock = clock;
    this.queue = new ArrayBlockingQueue<>(limits.queueEvents());
    this.maxBytes = limits.queueBytes();
    this.bulkMax = limits.bulkEvents();
    this.bulkMaxBytes = limits.bulkBytes();
    this.concurrency = limits.bulkConcurrency();
    this.inFlight = new Semaphore(concurrency);
    metrics.gauge("varve.index.queue.events", queue, BlockingQueue::size);
    Gauge.builder("varve.index.queue.bytes", heldBytes, AtomicLong::get)
        .description("Heap of the events waiting to be indexed and of the bulk requests in flight")
        .baseUnit("bytes")
        .register(metrics);
    this.drainer = new Thread(this::drain, "varve-indexer");
    drainer.setDaemon(true);
    drainer.start();
  }

  /** The store this indexer feeds. */
  public IndexStore store() {
    return store;
  }

  /** Queues events just written durably; never blocks. */
  public void offer(IndexSpec spec, List<Event> events) {
    Instant now = clock.instant();
    for (Event event : events) {
      if (!accepts(spec, event, now)) {
        counter("varve.index.skipped.events", spec).increment();
        continue;
      }
      Pending pending = new Pending(spec, event);
      if (heldBytes.addAndGet(pending.bytes()) > maxBytes || !queue.offer(pending)) {
        heldBytes.addAndGet(-pending.bytes());
        counter("varve.index.dropped.events", spec).increment();
      }
    }
  }

  /**
   * Drops the queued events of a namespace being deleted, counted as dropped: indexing them would
   * create again the index slices its deletion removes.
   */
  public void forget(String namespace) {
    List<Pending> forgotten = new ArrayList<>();
    queue.removeIf(
        p -> {
          if (p.spec().namespace().equals(namespace)) {
            forgotten.add(p);
            return true;
          }
          return false;
        });
    release(forgotten);
    if (!forgotten.isEmpty()) {
      counter("varve.index.dropped.events", forgotten.get(0).spec()).increment(forgotten.size());
    }
  }

  /** Events waiting in the queue. */
  public int backlog() {
    return queue.size();
  }

  /**
   * Whether an event at this time is indexed now: within the index's acceptLimit and in an index
   * slice not closed by retention.
   */
  public static boolean accepts(IndexSpec spec, Event event, Instant now) {
    if (event.eventTimeMillis() < now.minus(spec.acceptLimit()).toEpochMilli()) {
      return false;
    }
    return !IndexSlices.closed(spec, IndexSlices.sliceStart(spec, event.eventTimeMillis()), now);
  }

  /**
   * The drainer's loop. Nothing but an interrupt (close) ends it: a failure of any kind loses at
   * most the batch in hand (counted as failed events; a backfill indexes them), is recorded, and
   * the loop goes on after a pause.
   */
  private void drain() {
    List<Pending> batch = new ArrayList<>(bulkMax);
    while (!closed) {
      try {
        Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
        if (first != null) {
          batch.add(first);
          long bytes = first.bytes();
          // the only consumer: what it peeks at is what it polls
          for (Pending next = queue.peek();
              next != null && joins(batch.size(), bytes, next);
              next = queue.peek()) {
            batch.add(queue.poll());
            bytes += next.bytes();
          }
          inFlight.acquire();
          List<Pending> sent = List.copyOf(batch);
          batch.clear();
          send(sent);
        }
        worker.succeeded();
      } catch (InterruptedException e) {
        release(batch);
        Thread.currentThread().interrupt();
        return;
      } catch (Throwable t) {
        metrics.counter("varve.index.failed.events").increment(batch.size());
        release(batch);
        batch.clear();
        worker.failed("indexing", t);
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Sends a batch holding a bulk slot and its bytes, released when it completes or if sending
   * throws.
   */
  private void send(List<Pending> sent) {
    try {
      withRetry(sent, Duration.ofMillis(200), true)
          .whenComplete(
              (o, e) -> {
                release(sent);
                inFlight.release();
              });
    } catch (Throwable t) {
      release(sent);
      inFlight.release();
      metrics.counter("varve.index.failed.events").increment(sent.size());
      throw t;
    }
  }

  /**
   * Whether {@code next} joins a bulk request of {@code size} events and {@code bytes}: within
   * {@code bulkEvents} and {@code bulkBytes}.
   */
  private boolean joins(int size, long bytes, Pending next) {
    return size < bulkMax && bytes + next.bytes() <= bulkMaxBytes;
  }

  /** Gives back what {@code batch} held of the queue's bytes. */
  private void release(List<Pending> batch) {
    long bytes = 0;
    for (Pending p : batch) {
      bytes += p.bytes();
    }
    heldBytes.addAndGet(-bytes);
  }

  private CompletionStage<Outcome> withRetry(List<Pending> batch, Duration backoff, boolean first) {
    return index(batch, first)
        .handle(
            (outcome, error) -> {
              if (error == null || closed) {
                return CompletableFuture.completedFuture(outcome);
              }
              Throwable cause = Causes.unwrap(error);
              if (!(cause instanceof StorageException failure && failure.retryable())) {
                // not the store's availability: retrying would fail the same way and hold a bulk
                // slot forever
                log.error(
                    "indexing {} events failed and is not retried (a backfill indexes them): {}",
                    batch.size(),
                    cause.toString());
                metrics.counter("varve.index.failed.events").increment(batch.size());
                return CompletableFuture.completedFuture(new Outcome(0, batch.size(), 0));
              }
              log.warn(
                  "indexing {} events failed, retrying in {} ms: {}",
                  batch.size(),
                  backoff.toMillis(),
                  error.toString());
              Duration next =
                  backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                      ? MAX_BACKOFF
                      : backoff.multipliedBy(2);
              return CompletableFuture.supplyAsync(
                      () -> null,
                      CompletableFuture.delayedExecutor(backoff.toMillis(), TimeUnit.MILLISECONDS))
                  .thenCompose(v -> withRetry(batch, next, false));
            })
        .thenCompose(stage -> stage);
  }

  /**
   * Indexes events now, bypassing the queue (the backfill's path): creates missing index slices,
   * sends bulk requests of at most {@code bulkEvents} events and {@code bulkBytes} (an event larger
   * alone), {@code bulkConcurrency} at a time. Fails when the store could not be reached or asked
   * to retry.
   */
  public CompletionStage<Outcome> indexNow(IndexSpec spec, List<Event> events) {
    List<List<Pending>> bulks = new ArrayList<>();
    List<Pending> bulk = new ArrayList<>();
    long bytes = 0;
    for (Event event : events) {
      Pending p = new Pending(spec, event);
      if (!bulk.isEmpty() && !joins(bulk.size(), bytes, p)) {
        bulks.add(bulk);
        bulk = new ArrayList<>();
        bytes = 0;
      }
      bulk.add(p);
      bytes += p.bytes();
    }
    if (!bulk.isEmpty()) {
      bulks.add(bulk);
    }
    // {@code concurrency} lanes, each sending its bulks one after the other
    CompletableFuture<Outcome> total = CompletableFuture.completedFuture(new Outcome(0, 0, 0));
    for (int lane = 0; lane < Math.min(concurrency, bulks.size()); lane++) {
      CompletableFuture<Outcome> sent = CompletableFuture.completedFuture(new Outcome(0, 0, 0));
      for (int b = lane; b < bulks.size(); b += concurrency) {
        List<Pending> next = bulks.get(b);
        sent = sent.thenCompose(done -> index(next, false).thenApply(o -> sum(done, o)));
      }
      total = total.thenCombine(sent, Indexer::sum);
    }
    return total;
  }

  private static Outcome sum(Outcome a, Outcome b) {
    return new Outcome(a.indexed + b.indexed, a.failed + b.failed, a.unparsable + b.unparsable);
  }

  /** The number of bulk requests in flight at once. */
  public int concurrency() {
    return concurrency;
  }

  /**
   * One bulk request; {@code countUnparsable}: record unparsable values in the metric and log (on
   * the first attempt of a live batch, not on retries nor in a backfill, which reports its own
   * count).
   */
  private CompletionStage<Outcome> index(List<Pending> batch, boolean countUnparsable) {
    List<IndexDocument> documents = new ArrayList<>(batch.size());
    Map<String, IndexSpec> indices = new LinkedHashMap<>();
    long unparsable = 0;
    for (Pending p : batch) {
      IndexedEvent indexed = IndexedEvent.of(p.spec(), p.event());
      documents.add(indexed.document());
      indices.putIfAbsent(indexed.document().index(), p.spec());
      for (String field : indexed.unparsable()) {
        unparsable++;
        if (countUnparsable) {
          unparsable(p.spec(), field, p.event());
        }
      }
    }
    long unparsableValues = unparsable;
    CompletableFuture<?>[] prepared =
        indices.entrySet().stream()
            .map(e -> store.prepare(e.getKey(), e.getValue()).toCompletableFuture())
            .toArray(CompletableFuture[]::new);
    IndexSpec anySpec = batch.get(0).spec();
    return CompletableFuture.allOf(prepared)
        .thenCompose(v -> store.bulk(documents, anySpec))
        .thenApply(
            outcome -> {
              if (outcome.retryable()) {
                throw new StorageException(
                    StorageException.Store.INDEX,
                    StorageException.Reason.OVERLOADED,
                    "refused documents for now, e.g. " + outcome.failures().get(0),
                    null);
              }
              if (!outcome.failures().isEmpty()) {
                log.warn(
                    "index store refused {} of {} documents, e.g. {}",
                    outcome.failures().size(),
                    documents.size(),
                    outcome.failures().get(0));
                metrics.counter("varve.index.failed.events").increment(outcome.failures().size());
              }
              metrics.counter("varve.index.indexed.events").increment(outcome.indexed());
              return new Outcome(outcome.indexed(), outcome.failures().size(), unparsableValues);
            });
  }

  private void unparsable(IndexSpec spec, String field, Event event) {
    Counter.builder("varve.index.unparsable.values")
        .tag("namespace", spec.namespace())
        .tag("field", field)
        .register(metrics)
        .increment();
    AtomicLong last =
        lastWarning.computeIfAbsent(spec.namespace() + '\0' + field, k -> new AtomicLong());
    long now = System.nanoTime();
    long previous = last.get();
    if (now - previous > TimeUnit.SECONDS.toNanos(10) && last.compareAndSet(previous, now)) {
      log.warn(
          "namespace {}: item '{}' of event (timeSeriesId={}, eventId={}) does not parse as {}; left out of the"
              + " index (counted in varve_index_unparsable_values_total; further ones logged at most every 10 s)",
          spec.namespace(),
          field,
          event.timeSeriesId(),
          event.eventId(),
          spec.fields().get(field));
    }
  }

  private Counter counter(String name, IndexSpec spec) {
    return Counter.builder(name).tag("namespace", spec.namespace()).register(metrics);
  }

  @Override
  public void close() {
    closed = true;
    drainer.interrupt();
  }
}
