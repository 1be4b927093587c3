package io.varve.packing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Packs writes into unlogged batches that cost the cluster what their single-partition parts would,
 * in fewer requests: the partitions of one batch all have the same replicas, so the coordinator the
 * driver picks for the batch (a replica of its first partition) is a replica of every partition in
 * it and forwards nothing. A batch holds at most {@link PackingLimits} items, partitions and bytes;
 * an item larger than the byte bound is never split and goes in a batch of its own.
 *
 * <p>Two ways to pack:
 *
 * <ul>
 *   <li>a stream, in order ({@link #add}, {@link #flush}, or {@link #inOrder} for a list): the
 *       items of one partition arrive together; a batch takes the next item while the bounds allow
 *       and, for the first item of another partition, while that partition has the replicas of the
 *       batch's first one. Memory holds one batch. The reshaper writes its rows so.
 *   <li>a whole request ({@link #byReplicas}): items are grouped by replicas first, so that
 *       partitions with the same replicas share batches wherever they are in the request.
 * </ul>
 *
 * <p>The replicas come from the caller ({@link Placement}), which asks its own driver: this class
 * depends on the JDK only. Not thread-safe: one thread adds and flushes; the sink runs on it.
 *
 * @param <T> the caller's item
 */
public final class ReplicaPacker<T> {

  private final PackingLimits limits;
  private final Placement<T> placement;
  private final Consumer<Batch<T>> sink;
  private List<T> open = new ArrayList<>();
  private long openBytes;
  private int openPartitions;

  /** The replicas of the open batch's first partition, looked up when a second one could join. */
  private Object openReplicas;

  private boolean openReplicasKnown;

  /**
   * @param sink receives each batch once it is complete, on the thread that adds
   */
  public ReplicaPacker(PackingLimits limits, Placement<T> placement, Consumer<Batch<T>> sink) {
    this.limits = limits;
    this.placement = placement;
    this.sink = sink;
  }

  /** Packs a list as a stream, in order: see {@link #add}. */
  public static <T> List<Batch<T>> inOrder(
      List<T> items, PackingLimits limits, Placement<T> placement) {
    List<Batch<T>> batches = new ArrayList<>();
    ReplicaPacker<T> packer = new ReplicaPacker<>(limits, placement, batches::add);
    items.forEach(packer::add);
    packer.flush();
    return batches;
  }

  /**
   * Packs a whole request: items whose replicas are unknown, and items over the byte bound, each in
   * a batch of its own, first, in order; then the others grouped by replicas (groups in the order
   * of their first item, items in order within a group) and cut as a stream. Each item's replicas
   * are looked up once.
   */
  public static <T> List<Batch<T>> byReplicas(
      List<T> items, PackingLimits limits, Placement<T> placement) {
    List<Batch<T>> batches = new ArrayList<>();
    Map<Object, List<T>> groups = new LinkedHashMap<>();
    for (T item : items) {
      long bytes = placement.bytes(item);
      Object replicas = bytes > limits.maxBytes() ? null : placement.replicas(item);
      if (replicas == null) {
        batches.add(new Batch<>(List.of(item), bytes));
      } else {
        groups.computeIfAbsent(replicas, r -> new ArrayList<>()).add(item);
      }
    }
    // within a group the replicas are known: no lookup again
    groups.forEach(
        (replicas, group) ->
            batches.addAll(
                inOrder(
                    group,
                    limits,
                    Placement.of(placement::bytes, placement::samePartition, item -> replicas))));
    return batches;
  }

  /**
   * Adds the next item: to the open batch when it fits, else the open batch goes to the sink and
   * the item opens the next one. An item fits while the batch is under the item and byte bounds
   * and, when it starts another partition, under the partition bound with the replicas of the
   * batch's first partition (known, and equal).
   */
  public void add(T item) {
    long bytes = placement.bytes(item);
    boolean newPartition =
        open.isEmpty() || !placement.samePartition(open.get(open.size() - 1), item);
    if (!open.isEmpty() && !fits(item, bytes, newPartition)) {
      flush();
      newPartition = true;
    }
    if (newPartition) {
      openPartitions++;
    }
    open.add(item);
    openBytes += bytes;
  }

  /** Hands the open batch, if any, to the sink. */
  public void flush() {
    if (open.isEmpty()) {
      return;
    }
    Batch<T> batch = new Batch<>(open, openBytes);
    open = new ArrayList<>();
    openBytes = 0;
    openPartitions = 0;
    openReplicas = null;
    openReplicasKnown = false;
    sink.accept(batch);
  }

  private boolean fits(T item, long bytes, boolean newPartition) {
    return open.size() < limits.maxItems()
        && openBytes + bytes <= limits.maxBytes()
        && (!newPartition || joins(item));
  }

  /** Whether the first item of another partition may join the open batch. */
  private boolean joins(T item) {
    if (openPartitions >= limits.maxPartitions()) {
      return false;
    }
    if (!openReplicasKnown) {
      openReplicas = placement.replicas(open.get(0));
      openReplicasKnown = true;
    }
    return openReplicas != null && openReplicas.equals(placement.replicas(item));
  }
}
