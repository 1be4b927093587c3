package io.varve.core.write;

import io.varve.core.event.Event;

/** An event of a write batch with its position in the batch and the partition it belongs to. */
public record PlacedEvent(int index, Event event, PartitionKey partition) {}
