package io.varve.core.write;

import java.util.List;
import java.util.Map;

/**
 * What a write batch does: events grouped by partition (each group written as one unlogged batch)
 * and the events that cannot be written now.
 */
public record WritePlan(
    Map<PartitionKey, List<PlacedEvent>> partitions, List<Rejection> rejections) {}
