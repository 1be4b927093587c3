package io.varve.server.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import io.varve.core.write.PartitionKey;
import io.varve.server.buffer.NamespaceQueue.Queued;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamespaceQueueTest {

  static final PartitionKey P = new PartitionKey("t", "s", 0, 0);

  static Queued queued(String id, long bytes, long at) {
    return new Queued(new Event("s", 0, id, List.of()), P, bytes, at, 0);
  }

  @Test
  void a_batch_is_queued_whole_or_not_at_all() {
    NamespaceQueue q = new NamespaceQueue();
    assertThat(q.offer(List.of(queued("a", 60, 0), queued("b", 30, 0)), 90, 100)).isTrue();
    assertThat(q.offer(List.of(queued("c", 5, 0), queued("d", 10, 0)), 15, 100)).isFalse();
    assertThat(q.events()).isEqualTo(2);
    assertThat(q.bytes()).isEqualTo(90);
    assertThat(q.offer(List.of(queued("e", 10, 0)), 10, 100)).isTrue();
  }

  @Test
  void a_queue_is_due_after_the_coalesce_or_once_it_holds_the_flush_bytes() {
    NamespaceQueue q = new NamespaceQueue();
    q.offer(List.of(queued("a", 10, 1_000)), 10, 100);
    assertThat(q.takeIfDue(1_500, 1_000, 50)).isEmpty();
    assertThat(q.takeIfDue(2_000, 1_000, 50))
        .extracting(x -> x.event().eventId())
        .containsExactly("a");
    q.drained(List.of());
    q.offer(List.of(queued("b", 60, 3_000)), 60, 100);
    assertThat(q.takeIfDue(3_000, 1_000, 50)).hasSize(1);
  }

  @Test
  void one_batch_at_a_time_and_retries_go_back_first_in_order() {
    NamespaceQueue q = new NamespaceQueue();
    q.offer(List.of(queued("a", 10, 0), queued("b", 10, 0)), 20, 100);
    List<Queued> batch = q.takeIfDue(10, 0, 100);
    assertThat(q.idle()).isFalse();
    q.offer(List.of(queued("c", 10, 5)), 10, 100);
    assertThat(q.takeIfDue(100, 0, 100)).as("a batch is being written").isEmpty();
    q.drained(batch);
    assertThat(q.bytes()).isEqualTo(30);
    assertThat(q.takeIfDue(100, 0, 100))
        .extracting(x -> x.event().eventId())
        .containsExactly("a", "b", "c");
    q.drained(List.of());
    assertThat(q.idle()).isTrue();
  }
}
