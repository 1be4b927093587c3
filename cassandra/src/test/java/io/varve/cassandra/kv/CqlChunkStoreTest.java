package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The chunks of one value are read and written a bounded number at a time. */
class CqlChunkStoreTest {

  /** The tasks started, in order; each completes when the test completes it. */
  private final List<CompletableFuture<Void>> started = new ArrayList<>();

  private int inFlight;
  private int mostInFlight;

  private CompletionStage<Void> task(int index) {
    assertThat(index).as("tasks start in order").isEqualTo(started.size());
    CompletableFuture<Void> task = new CompletableFuture<>();
    started.add(task);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    return task.whenComplete((v, e) -> inFlight--);
  }

  @Test
  void every_task_runs_once_with_at_most_the_concurrency_in_flight() {
    CompletableFuture<Void> done = CqlChunkStore.bounded(5, 2, this::task).toCompletableFuture();
    assertThat(started).hasSize(2);

    for (int i = 0; i < 5; i++) {
      assertThat(done).isNotDone();
      started.get(i).complete(null);
    }

    assertThat(done).isCompleted();
    assertThat(started).hasSize(5);
    assertThat(mostInFlight).isEqualTo(2);
  }

  @Test
  void fewer_tasks_than_the_concurrency_all_start_at_once() {
    CompletableFuture<Void> done = CqlChunkStore.bounded(2, 8, this::task).toCompletableFuture();

    assertThat(started).hasSize(2);
    started.forEach(t -> t.complete(null));
    assertThat(done).isCompleted();
  }

  @Test
  void the_first_failure_fails_the_whole_and_no_further_task_starts() {
    CompletableFuture<Void> done = CqlChunkStore.bounded(5, 2, this::task).toCompletableFuture();

    started.get(0).completeExceptionally(new IllegalStateException("chunk 0 lost"));
    started.get(1).complete(null);

    assertThat(done).isCompletedExceptionally();
    assertThat(done.handle((v, e) -> e.getMessage()).join()).contains("chunk 0 lost");
    assertThat(started).as("no task started after the failure").hasSize(2);
  }

  @Test
  void no_tasks_are_done_at_once() {
    assertThat(CqlChunkStore.bounded(0, 4, this::task).toCompletableFuture()).isCompleted();
    assertThat(started).isEmpty();
  }
}
