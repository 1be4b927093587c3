package io.varve.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReplicaPackerTest {

  /** A row of {@code partition}, whose replicas are {@code replicas} (null: unknown). */
  record Item(String name, String partition, String replicas, long bytes) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Answers from the items themselves and counts the replica lookups. */
  static final class Lookups implements Placement<Item> {
    int count;

    @Override
    public long bytes(Item item) {
      return item.bytes();
    }

    @Override
    public boolean samePartition(Item previous, Item next) {
      return previous.partition().equals(next.partition());
    }

    @Override
    public Object replicas(Item item) {
      count++;
      return item.replicas();
    }
  }

  static final PackingLimits TEN = new PackingLimits(100, 10, 4096);

  static Item row(String name, String partition, String replicas, long bytes) {
    return new Item(name, partition, replicas, bytes);
  }

  /** One row in each of {@code count} partitions, all with replicas {@code replicas}. */
  static List<Item> partitions(int count, String replicas, long bytes) {
    return IntStream.range(0, count).mapToObj(i -> row("p" + i, "p" + i, replicas, bytes)).toList();
  }

  static List<List<String>> names(List<Batch<Item>> batches) {
    return batches.stream().map(b -> b.items().stream().map(Item::name).toList()).toList();
  }

  @Test
  void empty_input_gives_no_batch() {
    assertThat(ReplicaPacker.inOrder(List.of(), TEN, new Lookups())).isEmpty();
    assertThat(ReplicaPacker.byReplicas(List.of(), TEN, new Lookups())).isEmpty();
    List<Batch<Item>> sunk = new ArrayList<>();
    new ReplicaPacker<>(TEN, new Lookups(), sunk::add).flush();
    assertThat(sunk).isEmpty();
  }

  @Test
  void an_item_over_the_byte_bound_goes_whole_in_a_batch_of_its_own() {
    PackingLimits limits = new PackingLimits(100, 10, 50);
    List<Item> items =
        List.of(row("a", "pa", "A", 10), row("big", "pbig", "A", 5000), row("b", "pb", "A", 10));

    assertThat(names(ReplicaPacker.inOrder(items, limits, new Lookups())))
        .containsExactly(List.of("a"), List.of("big"), List.of("b"));
    List<Batch<Item>> grouped = ReplicaPacker.byReplicas(items, limits, new Lookups());
    assertThat(names(grouped)).containsExactly(List.of("big"), List.of("a", "b"));
    assertThat(grouped).extracting(Batch::bytes).containsExactly(5000L, 20L);

    List<Item> rowsOfOnePartition =
        List.of(row("r1", "p", "A", 10), row("r2", "p", "A", 5000), row("r3", "p", "A", 10));
    assertThat(names(ReplicaPacker.inOrder(rowsOfOnePartition, limits, new Lookups())))
        .containsExactly(List.of("r1"), List.of("r2"), List.of("r3"));
  }

  @Test
  void rows_of_one_partition_stay_together_up_to_the_item_and_byte_bounds() {
    List<Item> rows = IntStream.range(0, 7).mapToObj(i -> row("r" + i, "p", null, 10)).toList();

    assertThat(ReplicaPacker.inOrder(rows, new PackingLimits(3, 1, 4096), new Lookups()))
        .extracting(b -> b.items().size())
        .containsExactly(3, 3, 1);
    assertThat(ReplicaPacker.inOrder(rows, new PackingLimits(100, 1, 25), new Lookups()))
        .extracting(Batch::bytes)
        .containsExactly(20L, 20L, 20L, 10L);
  }

  @Test
  void a_partition_joins_a_batch_only_with_the_replicas_of_its_first_partition() {
    List<Item> items =
        List.of(
            row("p1", "p1", "A", 10),
            row("p2", "p2", "A", 10),
            row("p3", "p3", "B", 10),
            row("p4", "p4", "A", 10),
            row("p5", "p5", "A", 10));

    assertThat(names(ReplicaPacker.inOrder(items, TEN, new Lookups())))
        .containsExactly(List.of("p1", "p2"), List.of("p3"), List.of("p4", "p5"));
  }

  @Test
  void a_batch_holds_at_most_max_partitions_however_many_rows_they_have() {
    List<Item> rows = new ArrayList<>();
    for (int p = 0; p < 25; p++) {
      rows.add(row("p" + p + "a", "p" + p, "A", 10));
      rows.add(row("p" + p + "b", "p" + p, "A", 10));
    }

    assertThat(ReplicaPacker.inOrder(rows, TEN, new Lookups()))
        .extracting(b -> b.items().size())
        .containsExactly(20, 20, 10);
  }

  @Test
  void unknown_replicas_keep_a_partition_to_itself_with_all_its_rows() {
    List<Item> rows =
        List.of(row("a1", "a", null, 10), row("a2", "a", null, 10), row("b1", "b", null, 10));

    assertThat(names(ReplicaPacker.inOrder(rows, TEN, new Lookups())))
        .containsExactly(List.of("a1", "a2"), List.of("b1"));
    assertThat(names(ReplicaPacker.byReplicas(rows, TEN, new Lookups())))
        .containsExactly(List.of("a1"), List.of("a2"), List.of("b1"));
  }

  @Test
  void replicas_are_looked_up_only_when_another_partition_could_join() {
    Lookups onePartition = new Lookups();
    ReplicaPacker.inOrder(partitions(50, "A", 10), new PackingLimits(100, 1, 4096), onePartition);
    assertThat(onePartition.count).isZero();

    Lookups rowsOfOnePartition = new Lookups();
    ReplicaPacker.inOrder(
        IntStream.range(0, 50).mapToObj(i -> row("r" + i, "p", "A", 10)).toList(),
        TEN,
        rowsOfOnePartition);
    assertThat(rowsOfOnePartition.count).isZero();

    Lookups request = new Lookups();
    ReplicaPacker.byReplicas(partitions(50, "A", 10), TEN, request);
    assertThat(request.count).as("once per item").isEqualTo(50);
  }

  @Test
  void many_replica_sets_across_a_request_are_grouped_and_cut_at_the_bounds() {
    Random random = new Random(14);
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      items.add(row("i" + i, "p" + i, "R" + random.nextInt(50), 1 + random.nextInt(900)));
    }

    List<Batch<Item>> batches = ReplicaPacker.byReplicas(items, TEN, new Lookups());

    assertBounds(batches, TEN);
    assertThat(batches.stream().flatMap(b -> b.items().stream()).toList())
        .containsExactlyInAnyOrderElementsOf(items);
    assertThat(batches)
        .allSatisfy(
            b ->
                assertThat(new HashSet<>(b.items().stream().map(Item::replicas).toList()))
                    .hasSize(1));
    for (int r = 0; r < 50; r++) {
      String replicas = "R" + r;
      List<Item> group = items.stream().filter(i -> i.replicas().equals(replicas)).toList();
      assertThat(
              batches.stream()
                  .flatMap(b -> b.items().stream())
                  .filter(i -> i.replicas().equals(replicas)))
          .as("items of one replica set keep their order")
          .containsExactlyElementsOf(group);
    }
  }

  @Test
  void a_stream_of_random_rows_keeps_every_row_once_in_order_within_the_bounds() {
    Random random = new Random(9);
    for (int run = 0; run < 200; run++) {
      PackingLimits limits =
          new PackingLimits(
              1 + random.nextInt(20), 1 + random.nextInt(10), 1 + random.nextInt(500));
      List<Item> rows = new ArrayList<>();
      int partitions = random.nextInt(40);
      for (int p = 0; p < partitions; p++) {
        String replicas = random.nextInt(5) == 0 ? null : "R" + random.nextInt(3);
        for (int r = random.nextInt(6); r >= 0; r--) {
          rows.add(row("p" + p + "r" + r, "p" + p, replicas, random.nextInt(200)));
        }
      }

      List<Batch<Item>> batches = ReplicaPacker.inOrder(rows, limits, new Lookups());

      assertThat(batches.stream().flatMap(b -> b.items().stream()).toList())
          .containsExactlyElementsOf(rows);
      assertBounds(batches, limits);
    }
  }

  @Test
  void bounds_are_at_least_one() {
    assertThatThrownBy(() -> new PackingLimits(0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PackingLimits(1, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PackingLimits(1, 1, 0)).hasMessageContaining("maxBytes 0");
  }

  /**
   * Every batch within the item, byte (unless it is one item) and partition bounds; several
   * partitions only with the same, known replicas.
   */
  static void assertBounds(List<Batch<Item>> batches, PackingLimits limits) {
    for (Batch<Item> batch : batches) {
      List<Item> items = batch.items();
      assertThat(items).isNotEmpty().hasSizeLessThanOrEqualTo(limits.maxItems());
      assertThat(batch.bytes()).isEqualTo(items.stream().mapToLong(Item::bytes).sum());
      if (items.size() > 1) {
        assertThat(batch.bytes()).isLessThanOrEqualTo(limits.maxBytes());
      }
      Set<String> partitions = new HashSet<>(items.stream().map(Item::partition).toList());
      assertThat(partitions).hasSizeLessThanOrEqualTo(limits.maxPartitions());
      if (partitions.size() > 1) {
        assertThat(items)
            .allSatisfy(
                i -> assertThat(i.replicas()).isNotNull().isEqualTo(items.get(0).replicas()));
      }
    }
  }
}
