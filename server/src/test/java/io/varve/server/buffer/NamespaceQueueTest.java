package io.varve.server.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import io.varve.core.write.PartitionKey;
import io.varve.server.buffer.NamespaceQueue.Queued;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamespaceQueueTest {

  static final PartitionKey P = partition("s");

  static PartitionKey partition(String series) {
    return new PartitionKey("t", series, 0, 0);
  }

  static Queued queued(String id, long bytes, long at) {
    return queued(P, id, bytes, at);
  }

  static Queued queued(PartitionKey partition, String id, long bytes, long at) {
    return new Queued(
        PackedEvent.pack(new Event(partition.timeSeriesId(), 0, id, List.of())),
        partition,
        bytes,
        at,
        0);
  }

  static List<String> ids(List<Queued> slice) {
    return slice.stream().map(q -> q.unpacked().eventId()).toList();
  }

  @Test
  void a_batch_is_queued_whole_or_not_at_all() {
    NamespaceQueue q = new NamespaceQueue();
    assertThat(q.offer(List.of(queued("a", 60, 0), queued("b", 30, 0)), 100)).isEqualTo(90);
    assertThat(q.offer(List.of(queued("c", 5, 0), queued("d", 10, 0)), 100)).isEqualTo(-1);
    assertThat(q.events()).isEqualTo(2);
    assertThat(q.bytes()).isEqualTo(90);
    assertThat(q.offer(List.of(queued("e", 10, 0)), 100)).isEqualTo(10);
  }

  @Test
  void a_slice_is_due_after_the_coalesce_or_once_a_whole_slice_is_queued() {
    NamespaceQueue q = new NamespaceQueue();
    q.offer(List.of(queued("a", 10, 1_000)), 100);
    assertThat(q.takeSlice(1_500, 1_000, 50, 50, 4)).isEmpty();
    assertThat(ids(q.takeSlice(2_000, 1_000, 50, 50, 4))).containsExactly("a");
    q.drained(List.of());
    q.offer(List.of(queued("b", 60, 3_000)), 100);
    assertThat(q.takeSlice(3_000, 1_000, 50, 50, 4)).hasSize(1);
  }

  @Test
  void a_queue_holding_its_due_bytes_is_drained_before_the_coalesce_in_slices_of_the_slice_bytes() {
    NamespaceQueue q = new NamespaceQueue();
    q.offer(
        List.of(
            queued("a", 20, 0),
            queued(partition("b"), "b", 20, 0),
            queued(partition("c"), "c", 20, 0)),
        1_000);
    assertThat(q.takeSlice(10, 1_000, 100, 20, 4))
        .as("60 bytes queued, 100 due: the coalesce is waited for")
        .isEmpty();
    assertThat(ids(q.takeSlice(10, 1_000, 50, 20, 4)))
        .as("60 bytes queued, 50 due: one slice of 20 bytes")
        .containsExactly("a");
    assertThat(q.takeSlice(10, 1_000, 50, 20, 4))
        .as("40 bytes left, under the due bytes again")
        .isEmpty();
  }

  @Test
  void after_a_failed_slice_nothing_is_taken_until_its_pause_ends_then_the_retry_first() {
    NamespaceQueue q = new NamespaceQueue();
    q.offer(List.of(queued("a", 10, 0)), 100);
    List<Queued> failed = q.takeSlice(10, 0, 100, 100, 4);
    q.offer(List.of(queued(partition("other"), "b", 10, 5)), 100);
    q.drained(failed, 1_000, true);
    assertThat(q.takeSlice(999, 0, 100, 100, 4)).as("paused").isEmpty();
    assertThat(ids(q.takeSlice(1_000, 0, 100, 100, 4))).containsExactly("a", "b");
    q.drained(List.of(), 5_000, true);
    assertThat(q.offer(List.of(queued("c", 10, 1_100)), 100)).isEqualTo(10);
    assertThat(ids(q.takeSlice(1_200, 0, 100, 100, 4)))
        .as("a slice that failed nothing does not pause the queue")
        .containsExactly("c");
  }

  @Test
  void after_a_partly_written_slice_only_its_failed_events_wait_and_other_partitions_go_on() {
    NamespaceQueue q = new NamespaceQueue();
    PartitionKey down = partition("down");
    q.offer(List.of(queued(down, "a", 10, 0), queued("b", 10, 0)), 100);
    List<Queued> slice = q.takeSlice(10, 0, 100, 100, 4);
    assertThat(ids(slice)).containsExactly("a", "b");
    q.offer(List.of(queued(partition("up"), "c", 10, 20)), 100);
    // "b" was written, "a" (its replicas short) was not
    q.drained(List.of(slice.get(0)), 1_000, false);
    assertThat(ids(q.takeSlice(30, 0, 100, 100, 4)))
        .as("the other partitions before the retry's wait ends")
        .containsExactly("c");
    q.drained(List.of());
    assertThat(q.takeSlice(999, 0, 100, 100, 4)).as("only the retry left, still waiting").isEmpty();
    assertThat(q.events()).isEqualTo(1);
    assertThat(ids(q.takeSlice(1_000, 0, 100, 100, 4))).containsExactly("a");
  }

  @Test
  void slices_take_the_oldest_partitions_whole_with_their_later_events_up_to_the_slice_bytes() {
    NamespaceQueue q = new NamespaceQueue();
    PartitionKey x = partition("x");
    PartitionKey y = partition("y");
    PartitionKey z = partition("z");
    // three requests: x and y first, then more of both, then z and more of x
    q.offer(List.of(queued(x, "x1", 10, 0), queued(y, "y1", 10, 0)), 1_000);
    q.offer(List.of(queued(y, "y2", 10, 5), queued(x, "x2", 10, 5)), 1_000);
    q.offer(List.of(queued(z, "z1", 10, 9), queued(x, "x3", 10, 9)), 1_000);

    assertThat(ids(q.takeSlice(100, 0, 40, 40, 4)))
        .as("x whole, with the events of later requests, then y until the slice is full")
        .containsExactly("x1", "x2", "x3", "y1");
    assertThat(q.bytes()).isEqualTo(20);
    assertThat(ids(q.takeSlice(100, 0, 40, 40, 4)))
        .as("the rest of a split partition first")
        .containsExactly("y2", "z1");
    assertThat(q.events()).isZero();
    assertThat(q.idle()).as("two slices are being written").isFalse();
    q.drained(List.of());
    q.drained(List.of());
    assertThat(q.idle()).isTrue();
  }

  @Test
  void the_oldest_age_counts_the_partition_after_a_split_one() {
    NamespaceQueue q = new NamespaceQueue();
    PartitionKey x = partition("x");
    PartitionKey y = partition("y");
    q.offer(List.of(queued(x, "x1", 10, 0), queued(y, "y1", 10, 1)), 1_000);
    q.offer(List.of(queued(x, "x2", 10, 5), queued(x, "x3", 10, 9)), 1_000);
    assertThat(ids(q.takeSlice(100, 0, 20, 20, 4))).containsExactly("x1", "x2");
    assertThat(q.oldestAgeSeconds(1_000_000_001L))
        .as("y1 (at 1) has waited longer than the rest of x (x3, at 9), which stays first")
        .isEqualTo(1.0);
  }

  @Test
  void at_most_the_allowed_slices_at_a_time_and_retries_go_back_first_in_order() {
    NamespaceQueue q = new NamespaceQueue();
    q.offer(List.of(queued("a", 10, 0), queued("b", 10, 0)), 100);
    List<Queued> first = q.takeSlice(10, 0, 100, 100, 1);
    assertThat(ids(first)).containsExactly("a", "b");
    q.offer(List.of(queued(partition("other"), "c", 10, 5)), 100);
    assertThat(q.takeSlice(100, 0, 100, 100, 1)).as("one slice is being written").isEmpty();
    q.drained(first);
    assertThat(q.bytes()).isEqualTo(30);
    assertThat(q.oldestAgeSeconds(1_000_000_000L))
        .as("the retried events are the oldest")
        .isEqualTo(1.0);
    assertThat(ids(q.takeSlice(100, 0, 100, 100, 1))).containsExactly("a", "b", "c");
    q.drained(List.of());
    assertThat(q.idle()).isTrue();
    assertThat(q.clear()).isEmpty();
  }

  @Test
  void a_paced_queue_drains_its_rate_each_second_in_slices_of_a_tenth_of_a_second() {
    NamespaceQueue q = new NamespaceQueue();
    List<Queued> burst = new java.util.ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      burst.add(queued(partition("s" + i % 7), "e" + i, 10, 0));
    }
    q.offer(burst, 1L << 20);
    long second = 1_000_000_000L;
    int[] perSecond = new int[5];
    // a drainer looking every 10 ms, each slice written at once, for 5 s
    for (long now = 0; now < 5 * second; now += 10_000_000L) {
      for (List<Queued> slice = q.takeSlice(now, 0, 0, 1L << 20, 64, 100);
          !slice.isEmpty();
          slice = q.takeSlice(now, 0, 0, 1L << 20, 64, 100)) {
        assertThat(slice).hasSizeLessThanOrEqualTo(10);
        perSecond[(int) (now / second)] += slice.size();
        q.drained(List.of());
      }
    }
    // a burst into an empty queue: the rate from its first slice, no credit
    assertThat(perSecond).containsExactly(100, 100, 100, 100, 100);
    assertThat(q.events()).isEqualTo(1_000 - java.util.Arrays.stream(perSecond).sum());
  }

  @Test
  void a_paced_queue_late_by_more_than_the_slack_does_not_catch_up_the_whole_delay() {
    NamespaceQueue q = new NamespaceQueue();
    List<Queued> burst = new java.util.ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      burst.add(queued("e" + i, 10, 0));
    }
    q.offer(burst, 1L << 20);
    assertThat(drainAt(q, 0)).isEqualTo(10);
    // a drainer paused for 3 s (a collector's pause, say) makes up the slack's worth (a fifth of a
    // second, 20 events) and its own slice, not 3 s of rate
    assertThat(drainAt(q, 3_000_000_000L)).isEqualTo(30);
    // a queue found empty starts afresh: a new burst gets one slice now, the rest at the rate
    q.clear();
    drainAt(q, 3_500_000_000L);
    q.offer(List.of(queued("x", 10, 0), queued("y", 10, 0)), 1L << 20);
    List<Queued> next = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      next.add(queued("b" + i, 10, 0));
    }
    q.offer(next, 1L << 20);
    assertThat(drainAt(q, 4_000_000_000L)).isEqualTo(10);
  }

  @Test
  void a_partition_is_charged_once_to_its_first_event_and_its_events_share_one_key() {
    NamespaceQueue q = new NamespaceQueue(key -> 100);
    PartitionKey x = partition("x");
    PartitionKey y = partition("y");
    // its events and a partition for each partition it names
    assertThat(q.offer(List.of(queued(x, "x1", 10, 0), queued(y, "y1", 10, 0)), 1_000))
        .isEqualTo(220);
    // x is queued already: a later batch of it pays for its events only
    assertThat(q.offer(List.of(queued(partition("x"), "x2", 10, 1)), 1_000)).isEqualTo(10);
    assertThat(q.bytes()).isEqualTo(230);

    List<Queued> slice = q.takeSlice(10, 0, 0, 1_000, 4);
    assertThat(ids(slice)).containsExactly("x1", "x2", "y1");
    assertThat(slice.get(1).partition()).isSameAs(slice.get(0).partition());
    assertThat(slice.stream().mapToLong(Queued::bytes).sum()).isEqualTo(230);
    assertThat(q.bytes()).isZero();
    q.drained(List.of());
    // a partition made again is charged again
    assertThat(q.offer(List.of(queued(x, "x3", 10, 20)), 1_000)).isEqualTo(110);
  }

  @Test
  void a_batch_fits_on_what_it_costs_its_partitions_queued_already_free() {
    NamespaceQueue q = new NamespaceQueue(key -> 100);
    assertThat(q.offer(List.of(queued("a", 10, 0)), 120)).isEqualTo(110);
    // its partition is queued: 10 more fit in 120
    assertThat(q.offer(List.of(queued("b", 10, 0)), 120)).isEqualTo(10);
    // a new partition costs its 100 and its event's 10
    assertThat(q.offer(List.of(queued("c", 0, 0), queued(partition("z"), "z", 10, 0)), 1_000))
        .isEqualTo(110);
    // which do not fit in 230 beside the 230 queued: refused, nothing of it queued
    assertThat(q.offer(List.of(queued("d", 0, 0), queued(partition("w"), "w", 10, 0)), 230))
        .isEqualTo(-1);
    assertThat(q.events()).isEqualTo(4);
    assertThat(q.bytes()).isEqualTo(230);
  }

  private static int drainAt(NamespaceQueue q, long now) {
    int taken = 0;
    for (List<Queued> slice = q.takeSlice(now, 0, 0, 1L << 20, 64, 100);
        !slice.isEmpty();
        slice = q.takeSlice(now, 0, 0, 1L << 20, 64, 100)) {
      taken += slice.size();
      q.drained(List.of());
    }
    return taken;
  }
}
