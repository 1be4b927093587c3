package io.varve.server.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.core.error.StorageException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.index.DocumentMode;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexDocument;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import io.varve.core.namespace.Retention;
import io.varve.server.health.BackgroundWorkers;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The indexer's queue and bulk requests over a store whose answers the test decides (the store
 * itself is tested on a real OpenSearch): what a writer relies on is that a write is never held up,
 * every accepted event reaches the store once unless counted as dropped or failed, and the queue
 * stays within its events and bytes whatever the store does.
 */
class IndexerTest {

  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final IndexSpec SPEC =
      new IndexSpec(
          "ns",
          "base",
          3600,
          Map.of("k", FieldType.KEYWORD),
          Duration.ofSeconds(1),
          DocumentMode.REVERSE_INDEX,
          Duration.ofHours(1),
          new Retention(Optional.empty(), Optional.empty()));

  /** A store that keeps every bulk request and answers each as the test says. */
  static final class Store implements IndexStore {
    final List<List<IndexDocument>> bulks = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<BulkOutcome>> answers = new CopyOnWriteArrayList<>();
    final AtomicInteger failuresLeft = new AtomicInteger();
    final AtomicInteger calls = new AtomicInteger();
    volatile boolean hold;
    volatile StorageException.Reason failure = StorageException.Reason.OVERLOADED;

    @Override
    public CompletionStage<Void> prepare(String index, IndexSpec spec) {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletionStage<BulkOutcome> bulk(
        List<IndexDocument> documents, IndexSpec spec) {
      // synchronized with releaseAll: a bulk is recorded with its answer, never one without the
      // other
      calls.incrementAndGet();
      if (failuresLeft.getAndDecrement() > 0) {
        return CompletableFuture.failedFuture(
            new StorageException(StorageException.Store.INDEX, failure, "test", null));
      }
      bulks.add(List.copyOf(documents));
      CompletableFuture<BulkOutcome> answer = new CompletableFuture<>();
      answers.add(answer);
      if (!hold) {
        answer.complete(new BulkOutcome(documents.size(), List.of(), false));
      }
      return answer;
    }

    synchronized void releaseAll() {
      hold = false;
      for (int i = 0; i < bulks.size(); i++) {
        answers.get(i).complete(new BulkOutcome(bulks.get(i).size(), List.of(), false));
      }
    }

    int documents() {
      return bulks.stream().mapToInt(List::size).sum();
    }

    @Override
    public CompletionStage<List<Hit>> search(Search search) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Aggregates> aggregate(Search search, Aggregation aggregation) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<List<String>> indices(String prefix) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Void> delete(List<String> indices) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Void> refresh(List<String> indices) {
      throw new UnsupportedOperationException();
    }
  }

  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final Store store = new Store();
  final List<Indexer> started = new ArrayList<>();

  @AfterEach
  void close() {
    started.forEach(Indexer::close);
  }

  Indexer indexer(Indexer.Limits limits) {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    Indexer indexer =
        new Indexer(
            store,
            metrics,
            clock,
            limits,
            new BackgroundWorkers(metrics, clock)
                .register("indexer", false, Duration.ofMinutes(1)));
    started.add(indexer);
    return indexer;
  }

  static List<Event> events(int from, int count, int valueBytes) {
    List<Event> events = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      byte[] value = ("\"" + "v".repeat(valueBytes) + "\"").getBytes(StandardCharsets.UTF_8);
      events.add(
          new Event(
              "series",
              NOW.minusSeconds(60).toEpochMilli(),
              "e" + i,
              List.of(new EventItem("k".getBytes(StandardCharsets.UTF_8), value))));
    }
    return events;
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  double counted(String name) {
    return metrics.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  double queueBytes() {
    return metrics.get("varve.index.queue.bytes").gauge().value();
  }

  @Test
  void every_event_reaches_the_store_once_in_bulks_within_their_count_and_bytes() throws Exception {
    Indexer indexer = indexer(new Indexer.Limits(10_000, 64 << 20, 10, 8 << 20, 2));

    indexer.offer(SPEC, events(0, 95, 10));

    await("95 documents", () -> store.documents() == 95);
    assertThat(store.bulks).allSatisfy(b -> assertThat(b).hasSizeLessThanOrEqualTo(10));
    assertThat(store.bulks.stream().flatMap(List::stream).map(IndexDocument::id).distinct())
        .hasSize(95);
    await("the indexed count", () -> counted("varve.index.indexed.events") == 95);
    await("the queue's bytes given back", () -> queueBytes() == 0);
  }

  @Test
  void a_bulk_request_holds_at_most_its_bytes_and_a_larger_event_goes_alone() throws Exception {
    long eventBytes = Indexer.PENDING_BYTES + events(0, 1, 10_000).get(0).heapBytes();
    Indexer indexer = indexer(new Indexer.Limits(10_000, 64 << 20, 1000, 3 * eventBytes, 1));

    indexer.offer(SPEC, events(0, 10, 10_000));
    indexer.offer(SPEC, events(10, 1, 100_000));

    await("11 documents", () -> store.documents() == 11);
    assertThat(store.bulks).allSatisfy(b -> assertThat(b).hasSizeLessThanOrEqualTo(3));
    assertThat(store.bulks.get(store.bulks.size() - 1)).as("the large event, alone").hasSize(1);
  }

  @Test
  void with_the_store_stalled_the_queue_keeps_its_bound_and_drops_the_rest_counted()
      throws Exception {
    store.hold = true;
    Indexer indexer = indexer(new Indexer.Limits(20, 64 << 20, 5, 8 << 20, 1));

    indexer.offer(SPEC, events(0, 5, 10));
    await("the first bulk in flight", () -> store.bulks.size() == 1);
    indexer.offer(SPEC, events(5, 100, 10));

    // the drainer holds one more batch of 5 while it waits for the bulk slot; 20 wait queued
    assertThat(indexer.backlog()).isLessThanOrEqualTo(20);
    double dropped = counted("varve.index.dropped.events");
    assertThat(dropped).isGreaterThanOrEqualTo(100 - 20 - 5);
    store.releaseAll();
    await("every kept event indexed", () -> store.documents() == 105 - dropped);
    store.releaseAll();
    await("the queue's bytes given back", () -> queueBytes() == 0);
  }

  @Test
  void the_queue_keeps_its_bytes_bound_and_drops_the_rest_counted() throws Exception {
    store.hold = true;
    long eventBytes = Indexer.PENDING_BYTES + events(0, 1, 1000).get(0).heapBytes();
    Indexer indexer = indexer(new Indexer.Limits(10_000, 10 * eventBytes, 1, 8 << 20, 1));

    indexer.offer(SPEC, events(0, 50, 1000));

    assertThat(queueBytes()).isLessThanOrEqualTo(10 * eventBytes);
    assertThat(counted("varve.index.dropped.events")).isGreaterThanOrEqualTo(40);
  }

  @Test
  void a_bulk_the_store_refused_as_overloaded_is_retried_until_it_is_taken() throws Exception {
    store.failuresLeft.set(2);
    Indexer indexer = indexer(new Indexer.Limits(10_000, 64 << 20, 100, 8 << 20, 1));

    indexer.offer(SPEC, events(0, 7, 10));

    // two refusals, then taken after 200 + 400 ms of backoff
    await("7 documents", () -> store.documents() == 7);
    assertThat(store.bulks.stream().flatMap(List::stream).map(IndexDocument::eventId).distinct())
        .as("each event once")
        .hasSize(7);
    assertThat(store.calls.get()).as("the two refused bulks").isEqualTo(store.bulks.size() + 2);
    assertThat(counted("varve.index.failed.events")).isZero();
  }

  @Test
  void a_bulk_the_store_refused_for_good_is_counted_failed_and_not_retried() throws Exception {
    store.failure = StorageException.Reason.REFUSED;
    store.failuresLeft.set(1);
    Indexer indexer = indexer(new Indexer.Limits(10_000, 64 << 20, 100, 8 << 20, 1));

    indexer.offer(SPEC, events(0, 1, 10));
    await("the failure counted", () -> counted("varve.index.failed.events") == 1);
    indexer.offer(SPEC, events(1, 3, 10));

    await("the next events indexed", () -> store.documents() == 3);
    assertThat(store.calls.get())
        .as("the refused bulk was not sent again")
        .isEqualTo(1 + store.bulks.size());
    assertThat(store.bulks.stream().flatMap(List::stream).map(IndexDocument::eventId))
        .doesNotContain("e0");
  }

  @Test
  void events_older_than_the_accept_limit_are_skipped_and_counted() throws Exception {
    Indexer indexer = indexer(new Indexer.Limits(10_000, 64 << 20, 100, 8 << 20, 1));
    Event old =
        new Event("series", NOW.minus(Duration.ofHours(2)).toEpochMilli(), "old", List.of());

    indexer.offer(SPEC, List.of(old));
    indexer.offer(SPEC, events(0, 1, 10));

    await("the recent event", () -> store.documents() == 1);
    assertThat(counted("varve.index.skipped.events")).isEqualTo(1);
  }
}
