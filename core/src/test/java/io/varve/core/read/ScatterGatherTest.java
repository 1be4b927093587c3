package io.varve.core.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.slo.ReadDeadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScatterGatherTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * Serves partitions from memory. Synchronous by default; when {@code deferred}, each read's
   * future completes only when the test says so, so that reads in flight can be counted.
   */
  private static final class MemoryReader implements PartitionReader {
    private final Map<String, List<Event>> partitions = new HashMap<>();
    private final Map<String, RuntimeException> failures = new HashMap<>();
    private final Map<String, Integer> cuts = new HashMap<>();
    private final boolean deferred;
    final List<PartitionScan> scans = new ArrayList<>();
    final List<Cursor> cursors = new ArrayList<>();
    final List<List<EventItem>> filters = new ArrayList<>();
    final List<Integer> maxEvents = new ArrayList<>();
    final List<Runnable> pending = new ArrayList<>();
    int inFlight;
    int maxInFlight;

    MemoryReader(boolean deferred) {
      this.deferred = deferred;
    }

    MemoryReader put(BucketScan bucket, int eventBucket, Event... events) {
      partitions
          .computeIfAbsent(key(bucket, eventBucket), k -> new ArrayList<>())
          .addAll(Arrays.asList(events));
      return this;
    }

    MemoryReader fail(BucketScan bucket, int eventBucket, RuntimeException error) {
      failures.put(key(bucket, eventBucket), error);
      return this;
    }

    /** The partition's reads stop after {@code events}, cut, as at a full byte limit. */
    MemoryReader cutAfter(BucketScan bucket, int eventBucket, int events) {
      cuts.put(key(bucket, eventBucket), events);
      return this;
    }

    private static String key(BucketScan bucket, int eventBucket) {
      return bucket.table() + "/" + bucket.timeBucketMillis() + "/" + eventBucket;
    }

    @Override
    public synchronized CompletionStage<PartitionRead> read(
        PartitionScan scan, Cursor cursor, List<EventItem> filter, int max) {
      scans.add(scan);
      cursors.add(cursor);
      filters.add(filter);
      maxEvents.add(max);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      String key = key(scan.bucket(), scan.eventBucket());
      RuntimeException failure = failures.get(key);
      List<Event> events =
          partitions.getOrDefault(key, List.of()).stream()
              .filter(
                  e ->
                      e.eventTimeMillis() >= scan.bucket().fromMillis()
                          && e.eventTimeMillis() < scan.bucket().toMillis())
              .filter(e -> cursor == null || cursor.precedes(e))
              .sorted(Event::newestFirst)
              .limit(max)
              .collect(Collectors.toList());
      Integer cut = cuts.get(key);
      PartitionRead read =
          cut != null && cut < events.size()
              ? new PartitionRead(events.subList(0, cut), true)
              : PartitionRead.whole(events);
      CompletableFuture<PartitionRead> future = new CompletableFuture<>();
      Runnable complete =
          () -> {
            synchronized (this) {
              inFlight--;
            }
            if (failure != null) {
              future.completeExceptionally(failure);
            } else {
              future.complete(read);
            }
          };
      if (deferred) {
        pending.add(complete);
      } else {
        complete.run();
      }
      return future;
    }

    /** Completes the read pending longest. */
    void completeFirst() {
      Runnable first;
      synchronized (this) {
        first = pending.remove(0);
      }
      first.run();
    }

    /** Completes the pending reads one at a time, in random order, until none is left. */
    void drain(Random random) {
      while (true) {
        Runnable next;
        synchronized (this) {
          if (pending.isEmpty()) {
            return;
          }
          next = pending.remove(random.nextInt(pending.size()));
        }
        next.run();
      }
    }
  }

  private static BucketScan bucket(long start, int eventBuckets) {
    return new BucketScan("t", start, eventBuckets, start, start + 100);
  }

  private static Event event(long time, String id) {
    return new Event(
        "s", time, id, List.of(new EventItem("k".getBytes(UTF_8), id.getBytes(UTF_8))));
  }

  private static List<String> ids(ScatterGather.Result result) {
    return result.events().stream()
        .map(e -> e.eventTimeMillis() + e.eventId())
        .collect(Collectors.toList());
  }

  private static ScatterGather.Result await(CompletionStage<ScatterGather.Result> stage) {
    assertThat(stage.toCompletableFuture()).succeedsWithin(WAIT);
    return stage.toCompletableFuture().join();
  }

  @Test
  void merges_event_buckets_newest_first_with_ties_by_event_id() {
    BucketScan b = bucket(0, 3);
    MemoryReader reader =
        new MemoryReader(false)
            .put(b, 0, event(50, "b"), event(40, "d"))
            .put(b, 1, event(50, "a"), event(10, "f"))
            .put(b, 2, event(60, "c"), event(40, "c2"));

    ScatterGather.Result result =
        await(ScatterGather.run(reader, List.of(b), null, List.of(), 100, 3));

    assertThat(ids(result)).containsExactly("60c", "50a", "50b", "40c2", "40d", "10f");
    assertThat(result.partitionsUsed()).isEqualTo(3);
  }

  @Test
  void returns_newer_bucket_before_older_one() {
    BucketScan newer = bucket(100, 2);
    BucketScan older = bucket(0, 2);
    MemoryReader reader =
        new MemoryReader(false)
            .put(newer, 0, event(150, "x"))
            .put(newer, 1, event(199, "y"))
            .put(older, 0, event(99, "z"))
            .put(older, 1, event(0, "w"));

    ScatterGather.Result result =
        await(ScatterGather.run(reader, List.of(newer, older), null, List.of(), 10, 4));

    assertThat(ids(result)).containsExactly("199y", "150x", "99z", "0w");
    assertThat(result.partitionsUsed()).isEqualTo(4);
  }

  @Test
  void stops_at_want_without_reading_further_buckets() {
    List<BucketScan> buckets = List.of(bucket(200, 2), bucket(100, 2), bucket(0, 2));
    MemoryReader reader = new MemoryReader(false);
    for (BucketScan b : buckets) {
      reader
          .put(b, 0, event(b.timeBucketMillis() + 10, "p0"))
          .put(b, 1, event(b.timeBucketMillis() + 20, "p1"));
    }

    ScatterGather.Result result = await(ScatterGather.run(reader, buckets, null, List.of(), 3, 2));

    assertThat(ids(result)).containsExactly("220p1", "210p0", "120p1");
    assertThat(result.partitionsUsed()).as("the second bucket completed the page").isEqualTo(4);
    assertThat(reader.scans).extracting(s -> s.bucket().timeBucketMillis()).doesNotContain(0L);
    // each partition is asked for no more than the page still lacks: 3, 3, then 3 - 2 = 1
    assertThat(reader.maxEvents).containsExactly(3, 3, 1, 1);
  }

  @Test
  void merges_the_whole_bucket_before_taking_its_newest_events() {
    // the first partition to answer holds the older event; the page of one must hold the newer
    BucketScan b = bucket(100, 2);
    MemoryReader reader =
        new MemoryReader(false).put(b, 0, event(150, "x")).put(b, 1, event(199, "y"));

    ScatterGather.Result result =
        await(ScatterGather.run(reader, List.of(b), null, List.of(), 1, 1));

    assertThat(ids(result)).containsExactly("199y");
  }

  @ParameterizedTest(name = "window {0}, seed {1}")
  @CsvSource({"1, 1", "3, 2", "5, 3", "5, 4", "16, 5", "40, 6"})
  void keeps_at_most_window_reads_in_flight_and_merges_in_order(int window, long seed) {
    Random random = new Random(seed);
    List<BucketScan> buckets = new ArrayList<>();
    MemoryReader reader = new MemoryReader(true);
    List<String> expected = new ArrayList<>();
    for (int b = 3; b >= 0; b--) {
      BucketScan scan = bucket(b * 100L, 4);
      buckets.add(scan);
      List<Event> inBucket = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        Event e = event(scan.timeBucketMillis() + random.nextInt(100), "e" + random.nextInt(1000));
        reader.put(scan, random.nextInt(4), e);
        inBucket.add(e);
      }
      inBucket.sort(Event::newestFirst);
      inBucket.forEach(e -> expected.add(e.eventTimeMillis() + e.eventId()));
    }

    CompletionStage<ScatterGather.Result> stage =
        ScatterGather.run(reader, buckets, null, List.of(), 1000, window);
    reader.drain(random);

    ScatterGather.Result result = await(stage);
    assertThat(ids(result)).containsExactlyElementsOf(expected);
    assertThat(result.partitionsUsed()).isEqualTo(16);
    assertThat(reader.maxInFlight).isEqualTo(Math.min(window, 16));
    // partitions are read in plan order: newest bucket first, event buckets in order
    assertThat(reader.scans)
        .extracting(s -> s.bucket().timeBucketMillis() + "/" + s.eventBucket())
        .containsExactly(
            "300/0", "300/1", "300/2", "300/3", "200/0", "200/1", "200/2", "200/3", "100/0",
            "100/1", "100/2", "100/3", "0/0", "0/1", "0/2", "0/3");
  }

  @ParameterizedTest(name = "window {0}")
  @CsvSource({"0", "-3"})
  void reads_one_partition_at_a_time_when_window_is_below_one(int window) {
    List<BucketScan> buckets = List.of(bucket(100, 2), bucket(0, 2));
    MemoryReader reader = new MemoryReader(true).put(buckets.get(1), 1, event(5, "a"));

    CompletionStage<ScatterGather.Result> stage =
        ScatterGather.run(reader, buckets, null, List.of(), 10, window);
    reader.drain(new Random(7));

    assertThat(ids(await(stage))).containsExactly("5a");
    assertThat(reader.maxInFlight).isEqualTo(1);
  }

  @Test
  void passes_cursor_and_filters_to_every_partition() {
    List<BucketScan> buckets = List.of(bucket(100, 3), bucket(0, 3));
    Cursor cursor = new Cursor(150, "m");
    List<EventItem> filters = List.of(new EventItem("k".getBytes(UTF_8), "v".getBytes(UTF_8)));
    MemoryReader reader =
        new MemoryReader(false)
            .put(buckets.get(0), 0, event(150, "a"), event(150, "n"), event(120, "z"))
            .put(buckets.get(1), 2, event(50, "q"));

    ScatterGather.Result result = await(ScatterGather.run(reader, buckets, cursor, filters, 10, 2));

    assertThat(reader.scans).hasSize(6);
    assertThat(reader.cursors).allSatisfy(c -> assertThat(c).isSameAs(cursor));
    assertThat(reader.filters).allSatisfy(f -> assertThat(f).isSameAs(filters));
    assertThat(ids(result)).containsExactly("150n", "120z", "50q");
  }

  @Test
  void fails_when_one_partition_fails() {
    List<BucketScan> buckets = List.of(bucket(100, 3), bucket(0, 3));
    RuntimeException timeout = new RuntimeException("read timeout on partition t/100/1");
    MemoryReader reader =
        new MemoryReader(true)
            .put(buckets.get(0), 0, event(150, "a"))
            .fail(buckets.get(0), 1, timeout)
            .put(buckets.get(1), 0, event(50, "b"));

    CompletionStage<ScatterGather.Result> stage =
        ScatterGather.run(reader, buckets, null, List.of(), 10, 4);
    reader.drain(new Random(3));

    assertThat(stage.toCompletableFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .withCause(timeout);
  }

  @ParameterizedTest(name = "throwing on read #{0}")
  @CsvSource({"1", "3"})
  void fails_when_a_reader_throws_instead_of_returning_a_failed_stage(int failingRead) {
    List<BucketScan> buckets = List.of(bucket(100, 2), bucket(0, 2));
    IllegalStateException broken = new IllegalStateException("no session");
    MemoryReader memory = new MemoryReader(false).put(buckets.get(1), 0, event(5, "a"));
    int[] reads = {0};
    PartitionReader reader =
        (scan, cursor, filters, max) -> {
          if (++reads[0] == failingRead) {
            throw broken;
          }
          return memory.read(scan, cursor, filters, max);
        };

    CompletionStage<ScatterGather.Result> stage =
        ScatterGather.run(reader, buckets, null, List.of(), 10, 1);

    assertThat(stage.toCompletableFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(ExecutionException.class)
        .withCause(broken);
  }

  @Test
  void a_partition_cut_at_the_byte_limit_ends_the_page_at_its_last_event_and_nothing_older() {
    List<BucketScan> buckets = List.of(bucket(100, 2), bucket(0, 1));
    MemoryReader reader =
        new MemoryReader(false)
            .put(buckets.get(0), 0, event(190, "a"), event(170, "a"), event(150, "a"))
            .put(buckets.get(0), 1, event(180, "b"), event(160, "b"), event(140, "b"))
            .put(buckets.get(1), 0, event(50, "c"))
            .cutAfter(buckets.get(0), 0, 2);

    ScatterGather.Result result =
        ScatterGather.run(reader, buckets, null, List.of(), 10, 4).toCompletableFuture().join();

    // partition 0 may hold events between 170 and 150 it did not read: 160b is older than its
    // last event, so it waits for the next page, which starts after 170a
    assertThat(ids(result)).containsExactly("190a", "180b", "170a");
    assertThat(result.full()).isTrue();
    assertThat(result.partial()).isFalse();
    assertThat(reader.scans).extracting(PartitionScan::bucket).doesNotContain(buckets.get(1));
  }

  @Test
  void a_full_page_cancels_the_scans_of_later_buckets_in_flight_and_is_answered_not_failed()
      throws Exception {
    List<BucketScan> buckets = List.of(bucket(100, 2), bucket(0, 1));
    MemoryReader memory =
        new MemoryReader(true)
            .put(buckets.get(0), 0, event(190, "a"), event(170, "a"))
            .put(buckets.get(0), 1, event(180, "b"))
            .put(buckets.get(1), 0, event(50, "c"))
            .cutAfter(buckets.get(0), 0, 1);
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    try {
      ScanBudget budget = budget(60_000, timers);
      // as the store's reader does: every fetch is tracked, so stopping the budget cancels it
      PartitionReader reader =
          (scan, cursor, filters, max) -> budget.track(memory.read(scan, cursor, filters, max));
      CompletionStage<ScatterGather.Result> stage =
          ScatterGather.run(reader, buckets, null, List.of(), 10, 3, budget);
      memory.completeFirst();
      memory.completeFirst(); // the newest bucket is merged; the older one's scan is in flight

      ScatterGather.Result result = await(stage);

      assertThat(ids(result)).containsExactly("190a");
      assertThat(result.full()).isTrue();
      assertThat(memory.scans).hasSize(3);
    } finally {
      timers.shutdownNow();
    }
  }

  @Test
  void with_several_cut_partitions_the_page_ends_at_the_newest_of_their_last_events() {
    List<BucketScan> buckets = List.of(bucket(0, 3));
    MemoryReader reader =
        new MemoryReader(false)
            .put(buckets.get(0), 0, event(90, "a"), event(60, "a"), event(30, "a"))
            .put(buckets.get(0), 1, event(80, "b"), event(70, "b"), event(20, "b"))
            .put(buckets.get(0), 2, event(85, "c"), event(10, "c"))
            .cutAfter(buckets.get(0), 0, 2)
            .cutAfter(buckets.get(0), 1, 2);

    ScatterGather.Result result =
        ScatterGather.run(reader, buckets, null, List.of(), 10, 3).toCompletableFuture().join();

    assertThat(ids(result)).containsExactly("90a", "85c", "80b", "70b");
    assertThat(result.full()).isTrue();
  }

  @Test
  void a_page_that_reaches_want_before_a_cut_partition_is_not_full() {
    List<BucketScan> buckets = List.of(bucket(0, 2));
    MemoryReader reader =
        new MemoryReader(false)
            .put(buckets.get(0), 0, event(90, "a"), event(60, "a"))
            .put(buckets.get(0), 1, event(80, "b"), event(70, "b"))
            .cutAfter(buckets.get(0), 0, 1);

    ScatterGather.Result result =
        ScatterGather.run(reader, buckets, null, List.of(), 1, 2).toCompletableFuture().join();

    assertThat(ids(result)).containsExactly("90a");
    assertThat(result.full()).isFalse();
  }

  @Test
  void returns_nothing_for_an_empty_plan() {
    MemoryReader reader = new MemoryReader(false);

    ScatterGather.Result result =
        await(ScatterGather.run(reader, List.of(), null, List.of(), 10, 4));

    assertThat(result.events()).isEmpty();
    assertThat(result.partitionsUsed()).isZero();
    assertThat(reader.scans).isEmpty();
  }

  /** A budget whose deadline is {@code maxMillis} from now, on its own timer thread. */
  private static ScanBudget budget(long maxMillis, ScheduledExecutorService timers) {
    long now = System.nanoTime();
    return ScanBudget.of(
        ReadDeadline.of(now, Duration.ofMillis(maxMillis), Long.MAX_VALUE, System::nanoTime),
        Long.MAX_VALUE,
        timers,
        () -> {});
  }

  @Test
  void the_deadline_cuts_a_read_after_its_merged_buckets_with_a_cursor_below_them()
      throws Exception {
    List<BucketScan> buckets = List.of(bucket(200, 1), bucket(100, 1), bucket(0, 1));
    MemoryReader reader =
        new MemoryReader(true)
            .put(buckets.get(0), 0, event(250, "a"), event(210, "b"))
            .put(buckets.get(1), 0, event(150, "c"))
            .put(buckets.get(2), 0, event(50, "d"));
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    try {
      CompletionStage<ScatterGather.Result> stage =
          ScatterGather.run(reader, buckets, null, List.of(), 10, 1, budget(500, timers));
      reader.completeFirst(); // the newest bucket answers; the next one never does

      ScatterGather.Result result = await(stage);

      assertThat(ids(result)).containsExactly("250a", "210b");
      assertThat(result.partial()).isTrue();
      assertThat(result.resume()).isEqualTo(Cursor.olderThan(200));
      assertThat(reader.scans).hasSize(2);
    } finally {
      timers.shutdownNow();
    }
  }

  @Test
  void a_read_past_its_deadline_goes_on_until_one_bucket_is_merged() throws Exception {
    List<BucketScan> buckets = List.of(bucket(100, 1), bucket(0, 1));
    MemoryReader reader =
        new MemoryReader(true)
            .put(buckets.get(0), 0, event(150, "a"))
            .put(buckets.get(1), 0, event(50, "b"));
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    try {
      ScanBudget budget = budget(5, timers);
      CompletionStage<ScatterGather.Result> stage =
          ScatterGather.run(reader, buckets, null, List.of(), 10, 1, budget);
      CountDownLatch expired = new CountDownLatch(1);
      budget.whenExpired(expired::countDown);
      assertThat(expired.await(5, TimeUnit.SECONDS)).as("the deadline passed").isTrue();
      // the read's own expiry action ran on the same timer thread, before this no-op
      timers.submit(() -> {}).get(5, TimeUnit.SECONDS);
      assertThat(stage.toCompletableFuture()).isNotDone();
      reader.completeFirst();

      ScatterGather.Result result = await(stage);

      assertThat(ids(result)).containsExactly("150a");
      assertThat(result.resume()).isEqualTo(Cursor.olderThan(100));
      assertThat(reader.scans).as("no scan started past the deadline").hasSize(1);
    } finally {
      timers.shutdownNow();
    }
  }

  @Test
  void a_read_within_its_deadline_is_whole() {
    List<BucketScan> buckets = List.of(bucket(100, 2), bucket(0, 2));
    MemoryReader reader =
        new MemoryReader(false)
            .put(buckets.get(0), 1, event(150, "a"))
            .put(buckets.get(1), 0, event(50, "b"));
    ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    try {
      ScatterGather.Result result =
          await(ScatterGather.run(reader, buckets, null, List.of(), 10, 4, budget(5_000, timers)));

      assertThat(ids(result)).containsExactly("150a", "50b");
      assertThat(result.partial()).isFalse();
    } finally {
      timers.shutdownNow();
    }
  }

  @Test
  void the_cursor_older_than_a_time_is_followed_by_every_older_event_and_no_other() {
    Cursor cursor = Cursor.olderThan(100);

    assertThat(cursor.precedes(event(99, "0"))).isTrue();
    assertThat(cursor.precedes(event(99, "zzz"))).isTrue();
    assertThat(cursor.precedes(event(0, "a"))).isTrue();
    assertThat(cursor.precedes(event(100, "0"))).isFalse();
    assertThat(cursor.precedes(event(101, "a"))).isFalse();
  }
}
