package io.varve.server.buffer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.error.Causes;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.store.EventStore;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import io.varve.server.admission.AdmissionRefusedException;
import io.varve.server.buffer.NamespaceQueue.Queued;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.health.BackgroundWorker;
import io.varve.server.index.Indexer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-memory queues of fire-and-forget writes (WriteEventRecords), one per namespace, and their
 * drainer. A queue is drained in slices ({@link NamespaceQueue}) once the oldest queued event has
 * waited the namespace's {@code queueBuffering.coalesce}, or sooner once a sixteenth of its
 * capacity is queued ({@link #dueBytes}). A slice holds the partitions of the oldest events, each
 * with every event queued for it across the requests that brought them, and is written through the
 * event store as replica-packed batches. Slices are small ({@link #sliceBytes}), and the slices of
 * a namespace written at once follow the store's latency ({@link DrainWindow}); the next is taken
 * as one ends. So a burst reaches Cassandra steadily, at the rate it takes without queueing, not at
 * the rate it came and not in pulses. A namespace's {@code queueBuffering.drainRate} paces that
 * further: at most that many events a second are taken from its queue on this server, so a burst
 * reaches Cassandra as a flat rate over the seconds after it (unpaced while the server stops).
 * Written events go on to the index queue ({@link Indexer}) when the namespace has an index.
 *
 * <p>Memory is bounded twice: a namespace's queue by its {@code bufferCapacity}, all queues
 * together (with the batches being written) by {@code maxBytes}. A request that does not fit is
 * refused whole with RESOURCE_EXHAUSTED, before anything is queued.
 *
 * <p>Events of a slice the store did not acknowledge (UNAVAILABLE: a timeout, too few replicas) are
 * queued again and wait 250 ms, doubled after each failure up to 4 s. When nothing of the slice was
 * written, the namespace's whole queue waits: what it would take meanwhile would fail the same way.
 * When part of it was (token ranges short of replicas), the other partitions go on. The failed
 * events keep their bytes meanwhile, so a store down for long fills the buffer and writers are
 * refused, which is what tells them. Events still failing once they have been queued for the retry
 * window, or failing for another reason, are dropped, logged and counted. {@link #close} drains
 * everything before the server stops; what a crash loses is at most what was queued: a namespace's
 * capacity plus the slices in flight.
 */
public final class WriteBuffers implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WriteBuffers.class);

  /** How long a namespace's queue pauses after a failed write, doubled for each later attempt. */
  static final Duration RETRY_BACKOFF = Duration.ofMillis(250);

  /** The longest pause: {@link #RETRY_BACKOFF} doubled four times. */
  static final int MAX_BACKOFF_DOUBLINGS = 4;

  /** How often the drainer looks at the queues while they hold something. */
  static final Duration TICK = Duration.ofMillis(10);

  /**
   * How often it looks while nothing is queued or being written: a write queued meanwhile wakes it
   * at once. A hundred idle looks a second were half of an idle server's CPU.
   */
  static final Duration IDLE_TICK = Duration.ofSeconds(1);

  /** The smallest and the largest slice. */
  static final long MIN_SLICE_BYTES = 16L << 10;

  static final long MAX_SLICE_BYTES = 256L << 10;

  /**
   * The bytes of one slice of a namespace whose queue holds {@code capacity}: a sixty-fourth of it,
   * within {@link #MIN_SLICE_BYTES} and {@link #MAX_SLICE_BYTES}. A second of drain is many slices,
   * so Cassandra's write rate does not move in steps of slices; the coalescing does not depend on
   * it (a partition's queued events go whole into one slice).
   */
  static long sliceBytes(long capacity) {
    return Math.min(MAX_SLICE_BYTES, Math.max(MIN_SLICE_BYTES, capacity / 64));
  }

  /** The queued bytes from which a namespace's queue is drained before its coalesce has passed. */
  static long dueBytes(long capacity) {
    return Math.max(MIN_SLICE_BYTES, capacity / 16);
  }

  private final EventStore events;
  private final Function<String, Optional<NamespaceEntry>> known;
  private final Optional<Indexer> indexer;
  private final MeterRegistry metrics;
  private final BackgroundWorker worker;
  private final long maxBytes;
  private final long retryNanos;
  private final LongSupplier nanos;
  private final AtomicLong held = new AtomicLong();
  private final Map<String, NamespaceQueue> queues = new ConcurrentHashMap<>();
  private final ScheduledExecutorService drainer;
  private volatile boolean closing;

  /** The drainer's ticks of an older generation end (a wake started a newer one). */
  private final AtomicLong tickGeneration = new AtomicLong();

  /** Whether the drainer ticks at {@link #IDLE_TICK}: the next queued write wakes it. */
  private final AtomicBoolean idle = new AtomicBoolean();

  private final Consumer<String> reachable;

  /**
   * @param reachable refuses, UNAVAILABLE, a keyspace whose cluster is one of {@code
   *     cassandra.clusters} that cannot be reached now: its events would wait in the buffer all
   *     namespaces share, and fill it for the namespaces of the other clusters
   * @param known a namespace as the server knows it now (its control plane's cache): each drain
   *     cycle follows an UpdateNamespace (drain rate, coalesce) without waiting for a write
   * @param maxBytes bytes all queues and the batches being written may hold together
   * @param retryWindow how long after it was queued an event the store did not acknowledge is still
   *     written again; zero writes each event once
   * @param worker where the drainer's cycles and failures are recorded (metrics and health)
   */
  public WriteBuffers(
      EventStore events,
      Consumer<String> reachable,
      Function<String, Optional<NamespaceEntry>> known,
      Optional<Indexer> indexer,
      MeterRegistry metrics,
      long maxBytes,
      Duration retryWindow,
      BackgroundWorker worker) {
    this.events = events;
    this.reachable = reachable;
    this.known = known;
    this.indexer = indexer;
    this.metrics = metrics;
    this.maxBytes = maxBytes;
    this.retryNanos = retryWindow.toNanos();
    this.worker = worker;
    this.nanos = System::nanoTime;
    Gauge.builder("varve.buffer.bytes", held, AtomicLong::get)
        .description("Bytes of fire-and-forget events queued or being written, all namespaces")
        .baseUnit("bytes")
        .register(metrics);
    this.drainer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "varve-write-buffer");
              t.setDaemon(true);
              return t;
            });
    drainer.execute(() -> tick(0));
  }

  /**
   * The heap a queue adds to each event it holds beyond its {@linkplain PackedEvent packed} array
   * (compressed references, 8-byte alignment): its {@link NamespaceQueue.Queued} (40) and its slot
   * in its partition's queue (8, with the queue's room to grow).
   */
  static final long QUEUED_BYTES = 40 + 8;

  /**
   * The heap a partition of a queue holds beyond its events: map entry and slot (48), the partition
   * and its queue with their array (72), its key (32) and the key's series id (the table's name is
   * shared).
   */
  static final long PARTITION_BYTES = 48 + 72 + 32;

  /**
   * What one queued event holds on the heap, an upper bound, its partition not counted: its packed
   * array and {@link #QUEUED_BYTES}. {@code QueuedEventFootprintTest} walks queues of events of
   * several shapes and holds the charges within 1.5 times what they really take.
   */
  static long bytesOf(byte[] packed) {
    return QUEUED_BYTES + Event.arrayHeapBytes(packed.length);
  }

  /** What a partition of a queue holds on the heap, an upper bound, its events not counted. */
  static long bytesOf(PartitionKey partition) {
    return PARTITION_BYTES + Event.stringHeapBytes(partition.timeSeriesId());
  }

  /**
   * One request's events as a queue holds them, and the most they cost: each event's bytes and a
   * partition for each partition they name (fewer if the queue has some of them already).
   */
  record Request(List<Queued> events, long maxBytes) {

    static Request of(List<PlacedEvent> planned, long nowNanos) {
      List<Queued> events = new ArrayList<>(planned.size());
      Set<PartitionKey> partitions = new HashSet<>();
      long bytes = 0;
      for (PlacedEvent p : planned) {
        byte[] packed = PackedEvent.pack(p.event());
        long b = bytesOf(packed);
        bytes += b;
        if (partitions.add(p.partition())) {
          bytes += bytesOf(p.partition());
        }
        events.add(new Queued(packed, p.partition(), b, nowNanos, 0));
      }
      return new Request(events, bytes);
    }
  }

  /** The bytes the server's buffer ({@code bufferedWriteBytes}) can still take. */
  public long roomBytes() {
    return maxBytes - held.get();
  }

  /**
   * Queues the planned events of one request whole, or refuses them all: FAILED_PRECONDITION when
   * the namespace takes durable writes only ({@code bufferCapacity} 0), RESOURCE_EXHAUSTED when its
   * queue or the server's buffer is full, UNAVAILABLE while the server stops or while the
   * namespace's cluster (one of {@code cassandra.clusters}) cannot be reached.
   */
  public void enqueue(NamespaceEntry ns, List<PlacedEvent> planned) {
    String name = ns.record().namespace();
    NamespaceSettings settings = ns.settings();
    if (settings.bufferCapacityBytes() == 0) {
      throw VarveException.failedPrecondition(
          "namespace '"
              + name
              + "' takes durable writes only (queueBuffering.bufferCapacity is 0): use"
              + " WriteEventRecordsSync, or set a bufferCapacity to allow fire-and-forget writes");
    }
    if (closing) {
      throw new VarveException(
          VarveException.Kind.UNAVAILABLE,
          "the server is stopping and takes no more fire-and-forget writes; retry on another server");
    }
    reachable.accept(settings.keyspace());
    Request request = Request.of(planned, nanos.getAsLong());
    List<Queued> batch = request.events();
    long bytes = request.maxBytes();
    if (bytes > settings.bufferCapacityBytes()) {
      throw new InvalidFieldException(
          "events",
          InvalidFieldException.shown(batch.size() + " events of about " + bytes + " bytes"),
          "at most the namespace's queueBuffering.bufferCapacity ("
              + settings.bufferCapacityBytes()
              + " bytes) in one request: send smaller requests");
    }
    if (held.addAndGet(bytes) > maxBytes) {
      held.addAndGet(-bytes);
      throw refused(name, batch.size(), "the server's write buffer is full");
    }
    NamespaceQueue queue = queue(name);
    queue.entry = ns;
    long charged = queue.offer(batch, settings.bufferCapacityBytes());
    held.addAndGet((charged < 0 ? 0 : charged) - bytes);
    if (charged < 0) {
      throw refused(name, batch.size(), "the namespace's write buffer is full");
    }
    counter("varve.buffer.queued.events", name).increment(batch.size());
    wake();
  }

  /**
   * One look at the queues, then the next: in {@link #TICK} while anything is held (queued, being
   * written or waiting to be retried), else in {@link #IDLE_TICK}. A tick of a generation a wake
   * has superseded ends without a next.
   */
  private void tick(long generation) {
    if (generation != tickGeneration.get()) {
      return;
    }
    worker.run(this::cycle);
    Duration next = TICK;
    if (held.get() == 0) {
      idle.set(true);
      // a write queued before idle was set found it unset and woke no one: look again
      if (held.get() == 0) {
        next = IDLE_TICK;
      } else {
        idle.set(false);
      }
    }
    long delay = next.toMillis();
    handOver(() -> drainer.schedule(() -> tick(generation), delay, TimeUnit.MILLISECONDS));
  }

  /** Starts ticking at once when the drainer idles: a write was queued. */
  private void wake() {
    if (idle.compareAndSet(true, false)) {
      long generation = tickGeneration.incrementAndGet();
      handOver(() -> drainer.execute(() -> tick(generation)));
    }
  }

  /**
   * Hands work to the drainer. A stopping server's drainer refuses it, and nothing is lost: close()
   * waits for the queues itself.
   */
  private static void handOver(Runnable submit) {
    try {
      submit.run();
    } catch (RejectedExecutionException e) {
      // the server is stopping
    }
  }

  private AdmissionRefusedException refused(String namespace, int events, String why) {
    counter("varve.buffer.refused.events", namespace).increment(events);
    return new AdmissionRefusedException(
        why + " (namespace '" + namespace + "'): retry later with backoff");
  }

  private NamespaceQueue queue(String namespace) {
    return queues.computeIfAbsent(
        namespace,
        n -> {
          NamespaceQueue q = new NamespaceQueue(WriteBuffers::bytesOf);
          Gauge.builder("varve.buffer.drain.window", q.window, DrainWindow::slices)
              .tag("namespace", n)
              .description(
                  "Slices of the namespace's queue that may be written at once, following the"
                      + " store's latency")
              .register(metrics);
          Gauge.builder("varve.buffer.drain.latency", q.window, w -> w.latencyMillis() / 1000)
              .tag("namespace", n)
              .baseUnit("seconds")
              .description("How long the store took to write the namespace's latest slice")
              .register(metrics);
          Gauge.builder("varve.buffer.queue.events", q, NamespaceQueue::events)
              .tag("namespace", n)
              .description("Fire-and-forget events queued, not yet taken for writing")
              .register(metrics);
          Gauge.builder("varve.buffer.queue.bytes", q, NamespaceQueue::bytes)
              .tag("namespace", n)
              .baseUnit("bytes")
              .description("Bytes of fire-and-forget events queued, not yet taken for writing")
              .register(metrics);
          Gauge.builder(
                  "varve.buffer.queue.oldest.age", q, x -> x.oldestAgeSeconds(nanos.getAsLong()))
              .tag("namespace", n)
              .baseUnit("seconds")
              .description("How long the oldest queued fire-and-forget event has waited")
              .register(metrics);
          return q;
        });
  }

  private Counter counter(String name, String namespace) {
    return Counter.builder(name).tag("namespace", namespace).register(metrics);
  }

  /** One look at every queue: starts the write of each that is due. */
  private void cycle() {
    long now = nanos.getAsLong();
    queues.forEach(
        (name, q) -> {
          try {
            NamespaceEntry ns = q.entry;
            if (ns == null) {
              return; // its first request is being queued
            }
            ns = known.apply(name).filter(e -> sameStore(e, q.entry)).orElse(ns);
            long coalesce = closing ? 0 : ns.settings().coalesce().toNanos();
            long capacity = ns.settings().bufferCapacityBytes();
            long due = dueBytes(capacity);
            long slice = sliceBytes(capacity);
            long rate = closing ? 0 : ns.settings().drainRate();
            for (List<Queued> batch =
                    q.takeSlice(now, coalesce, due, slice, q.window.slices(), rate);
                !batch.isEmpty();
                batch = q.takeSlice(now, coalesce, due, slice, q.window.slices(), rate)) {
              write(name, ns, q, batch);
            }
          } catch (RuntimeException e) {
            worker.failed("namespace " + name, e);
          }
        });
  }

  /**
   * Whether the known entry writes where the queue's events were planned for: a namespace deleted
   * and created again in another keyspace keeps draining what was queued for the first.
   */
  private static boolean sameStore(NamespaceEntry known, NamespaceEntry queued) {
    return known.settings().keyspace().equals(queued.settings().keyspace());
  }

  /** Writes one taken batch, grouped by partition; hands back what is to be retried. */
  private void write(String name, NamespaceEntry ns, NamespaceQueue q, List<Queued> batch) {
    Map<PartitionKey, List<PlacedEvent>> partitions = new LinkedHashMap<>();
    List<Event> unpacked = new ArrayList<>(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Queued e = batch.get(i);
      unpacked.add(e.unpacked());
      partitions
          .computeIfAbsent(e.partition(), k -> new ArrayList<>())
          .add(new PlacedEvent(i, unpacked.get(i), e.partition()));
    }
    long start = nanos.getAsLong();
    int inFlight = q.slicesInFlight();
    CompletionStage<Map<Integer, VarveException>> written;
    try {
      written = events.write(ns.settings().keyspace(), partitions, ns.settings().consistency());
    } catch (RuntimeException e) {
      // a store that throws instead of failing its stage must not leave the queue taken forever
      written = CompletableFuture.failedFuture(e);
    }
    written.whenComplete(
        (failures, error) -> {
          q.window.written(
              start,
              nanos.getAsLong() - start,
              inFlight,
              error != null || (failures != null && !failures.isEmpty()));
          boolean retried;
          try {
            retried =
                settle(
                    name,
                    ns,
                    q,
                    batch,
                    unpacked,
                    error == null ? failures : allFailed(batch, error));
          } catch (RuntimeException e) {
            worker.failed("namespace " + name, e);
            q.drained(List.of());
            retried = false;
          }
          if (!retried) {
            refill();
          }
        });
  }

  /** Takes the next slices now that one is written, rather than at the next tick. */
  private void refill() {
    handOver(() -> drainer.execute(() -> worker.run(this::cycle)));
  }

  private static Map<Integer, VarveException> allFailed(List<Queued> batch, Throwable error) {
    Throwable cause = Causes.unwrap(error);
    VarveException failure =
        cause instanceof VarveException v
            ? v
            : new VarveException(VarveException.Kind.INTERNAL, String.valueOf(cause), cause);
    Map<Integer, VarveException> all = new HashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      all.put(i, failure);
    }
    return all;
  }

  /** Settles a written slice; returns whether some of it is to be written again (after a pause). */
  private boolean settle(
      String name,
      NamespaceEntry ns,
      NamespaceQueue q,
      List<Queued> batch,
      List<Event> unpacked,
      Map<Integer, VarveException> failures) {
    List<Queued> retry = new ArrayList<>();
    List<Event> written = new ArrayList<>(batch.size() - failures.size());
    long released = 0;
    int dropped = 0;
    VarveException lastDrop = null;
    long now = nanos.getAsLong();
    for (int i = 0; i < batch.size(); i++) {
      Queued e = batch.get(i);
      VarveException failure = failures.get(i);
      if (failure == null) {
        written.add(unpacked.get(i));
        released += e.bytes();
      } else if (failure.kind() == VarveException.Kind.UNAVAILABLE
          && now - e.queuedNanos() < retryNanos) {
        retry.add(e.failedOnce());
      } else {
        released += e.bytes();
        dropped++;
        lastDrop = failure;
      }
    }
    held.addAndGet(-released);
    counter("varve.buffer.written.events", name).increment(written.size());
    if (!retry.isEmpty()) {
      counter("varve.buffer.retried.events", name).increment(retry.size());
    }
    if (dropped > 0) {
      counter("varve.buffer.dropped.events", name).increment(dropped);
      worker.failed(
          "namespace " + name + ": " + dropped + " fire-and-forget events dropped", lastDrop);
    }
    if (!written.isEmpty() && indexer.isPresent() && ns.index().isPresent()) {
      indexer.get().offer(ns.index().get(), written);
    }
    if (retry.isEmpty()) {
      q.drained(retry);
      return false;
    }
    long backoff =
        RETRY_BACKOFF.toNanos() << Math.min(MAX_BACKOFF_DOUBLINGS, retry.get(0).attempts() - 1);
    // nothing written: the store is failing, the whole queue waits; else only what failed waits
    q.drained(retry, now + backoff, written.isEmpty());
    return true;
  }

  /** Bytes queued or being written, all namespaces. */
  public long heldBytes() {
    return held.get();
  }

  /**
   * Stops taking writes and drains every queue, coalescing no longer, for at most {@code timeout};
   * what is still queued then is dropped, logged and counted.
   */
  public void close(Duration timeout) {
    closing = true;
    long deadline = nanos.getAsLong() + timeout.toNanos();
    while (nanos.getAsLong() < deadline
        && !queues.values().stream().allMatch(NamespaceQueue::idle)) {
      try {
        Thread.sleep(TICK.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    drainer.shutdownNow();
    queues.forEach(
        (name, q) -> {
          List<Queued> left = q.clear();
          if (!left.isEmpty()) {
            counter("varve.buffer.dropped.events", name).increment(left.size());
            log.error(
                "{} fire-and-forget events of namespace {} were not written before the server"
                    + " stopped (drain timeout {})",
                left.size(),
                name,
                timeout);
          }
        });
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }
}
