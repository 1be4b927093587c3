package io.varve.core.write;

import io.varve.core.error.VarveException;
import io.varve.core.event.Event;

/**
 * An event of a write batch that was not written.
 *
 * @param index position of the event in the batch
 * @param kind {@link VarveException.Kind#FAILED_PRECONDITION} (do not retry as is) or {@link
 *     VarveException.Kind#UNAVAILABLE} (retry)
 * @param message why, naming the event
 */
public record Rejection(int index, Event event, VarveException.Kind kind, String message) {}
