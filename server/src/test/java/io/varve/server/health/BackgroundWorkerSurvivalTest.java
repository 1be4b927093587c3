package io.varve.server.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.linecorp.armeria.server.Server;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import io.varve.core.store.SliceTables;
import io.varve.server.MovableClock;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.controlplane.SliceMaintainer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The slice maintainer's schedule survives a cycle that throws an Error (as an OutOfMemoryError
 * once ended it for good), counts the failure, and /health says which worker is failing. The
 * metadata store is a stub that throws: the point is the scheduler and its reporting.
 */
class BackgroundWorkerSurvivalTest {

  /**
   * A metadata store whose listing throws OutOfMemoryError while {@code failing}; empty otherwise.
   */
  static final class ExhaustedStore implements MetadataStore {
    final AtomicInteger listings = new AtomicInteger();
    final AtomicBoolean failing = new AtomicBoolean(true);

    @Override
    public CompletionStage<List<NamespaceRecord>> list() {
      listings.incrementAndGet();
      if (failing.get()) {
        throw new OutOfMemoryError("Java heap space (test)");
      }
      return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public CompletionStage<Void> create(NamespaceRecord record) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> update(NamespaceRecord record) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Optional<NamespaceRecord>> get(String namespace) {
      return CompletableFuture.completedFuture(Optional.empty());
    }

    @Override
    public CompletionStage<List<TimeSlice>> slices(String namespace) {
      return CompletableFuture.completedFuture(List.of());
    }

    @Override
    public CompletionStage<Void> putSlice(TimeSlice slice) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Void> removeSlice(TimeSlice slice) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> setSliceCompaction(
        TimeSlice slice, String strategy, java.time.Instant at) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> setSlicePending(
        TimeSlice slice,
        java.util.Optional<io.varve.core.partitioning.SliceLifecycle.PendingTable> pending) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> swapSliceTable(TimeSlice slice, TimeSlice swapped) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> forgetPreviousTable(TimeSlice slice) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> setSliceHistogram(
        TimeSlice slice, io.varve.core.partitioning.SliceHistogram histogram) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> remove(NamespaceRecord record) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<Boolean> setSliceStatus(
        TimeSlice slice, SliceStatus status, java.time.Instant at) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletionStage<byte[]> pageTokenKey() {
      throw new UnsupportedOperationException();
    }
  }

  static final SliceTables NO_TABLES =
      new SliceTables() {
        @Override
        public CompletionStage<Void> createKeyspaceIfMissing(String keyspace) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Void> create(String keyspace, String table) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<java.util.Optional<String>> create(
            String keyspace,
            String table,
            io.varve.core.partitioning.CompactionPolicy.Open open,
            Duration writeLife) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<java.util.Optional<String>> closedStrategy(
            String keyspace, io.varve.core.partitioning.CompactionPolicy.Closed closed) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Void> compactClosed(
            String keyspace,
            String table,
            io.varve.core.partitioning.CompactionPolicy.Closed closed) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<java.util.Optional<String>> compaction(
            String keyspace, String table) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Boolean> exists(String keyspace, String table) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Boolean> hasRows(String keyspace, String table) {
          throw new UnsupportedOperationException();
        }

        @Override
        public io.varve.core.partitioning.SliceHistogram measure(
            String keyspace, String table, long maxRows, int sampleRows) {
          throw new UnsupportedOperationException();
        }

        @Override
        public CompletionStage<Void> drop(String keyspace, String table) {
          throw new UnsupportedOperationException();
        }
      };

  private static final ObjectMapper JSON = new ObjectMapper();

  private static void await(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static HttpResponse<String> health(Server server) throws Exception {
    return io.varve.server.TestHttp.client()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.activeLocalPort() + "/health"))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void keeps_cycling_after_an_error_and_reports_it_in_the_metric_and_health() throws Exception {
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    MovableClock wall = new MovableClock();
    BackgroundWorkers workers = new BackgroundWorkers(metrics, wall);
    ExhaustedStore store = new ExhaustedStore();
    NamespaceRegistry registry =
        new NamespaceRegistry(
            store, new NamespaceConfigMapper("varve"), 8, 32, metrics, java.time.Clock.systemUTC());
    Server server =
        Server.builder()
            .http(0)
            .service("/health", HealthReport.service(workers, Map::of, Map::of))
            .build();
    server.start().join();
    try (SliceMaintainer maintainer =
        new SliceMaintainer(
            registry,
            store,
            NO_TABLES,
            Clock.systemUTC(),
            Duration.ofHours(1),
            null, // no namespace is ever listed: nothing to delete
            null, // nor to compact
            workers.register("slice-maintainer", true, Duration.ofMinutes(10)))) {
      maintainer.start(Duration.ofMillis(20));

      await("five cycles, each throwing OutOfMemoryError", () -> store.listings.get() >= 5);
      assertThat(
              metrics
                  .get("varve.background.failures")
                  .tag("worker", "slice-maintainer")
                  .counter()
                  .count())
          .isGreaterThanOrEqualTo(4);
      assertThat(workers.isHealthy()).as("failing, but within its bound").isTrue();

      wall.advance(Duration.ofMinutes(11));
      HttpResponse<String> down = health(server);
      assertThat(down.statusCode()).isEqualTo(503);
      JsonNode body = JSON.readTree(down.body());
      assertThat(body.path("status").asText()).isEqualTo("DOWN");
      JsonNode worker = body.path("workers").path("slice-maintainer");
      assertThat(worker.path("healthy").asBoolean()).isFalse();
      assertThat(worker.path("failures").asLong()).isGreaterThanOrEqualTo(4);
      assertThat(worker.path("lastFailure").asText()).contains("OutOfMemoryError");

      store.failing.set(false);
      int before = store.listings.get();
      await(
          "cycles completing again",
          () -> store.listings.get() > before + 2 && workers.isHealthy());
      HttpResponse<String> up = health(server);
      assertThat(up.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(up.body()).path("status").asText()).isEqualTo("UP");
    } finally {
      server.stop().join();
    }
  }

  @Test
  void a_stale_worker_that_is_not_critical_degrades_health_without_failing_it() {
    MovableClock wall = new MovableClock();
    BackgroundWorkers workers = new BackgroundWorkers(new SimpleMeterRegistry(), wall);
    BackgroundWorker indexer = workers.register("indexer", false, Duration.ofMinutes(10));

    assertThat(
            indexer.run(
                () -> {
                  throw new StackOverflowError("test");
                }))
        .isFalse();
    wall.advance(Duration.ofMinutes(11));

    assertThat(workers.isHealthy()).isTrue();
    assertThat(workers.degraded()).isTrue();
    assertThat(workers.statuses())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.stale()).isTrue();
              assertThat(s.failures()).isEqualTo(1);
            });
  }

  @Test
  void stale_bound_is_ten_cycles_and_at_least_ten_minutes() {
    assertThat(BackgroundWorkers.staleAfter(Duration.ofSeconds(30)))
        .isEqualTo(Duration.ofMinutes(10));
    assertThat(BackgroundWorkers.staleAfter(Duration.ofMinutes(5)))
        .isEqualTo(Duration.ofMinutes(50));
  }
}
