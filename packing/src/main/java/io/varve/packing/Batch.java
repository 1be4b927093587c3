package io.varve.packing;

import java.util.List;

/**
 * One packed batch: its items in the order they were added, all of partitions with the same
 * replicas, and their bytes (the sum of {@link Placement#bytes}).
 *
 * @param <T> the caller's item
 */
public record Batch<T>(List<T> items, long bytes) {}
