package io.varve.core.write;

import io.varve.core.event.Event;

/**
 * An event of a write batch that was not written.
 *
 * @param index position of the event in the batch
 * @param code FAILED_PRECONDITION (do not retry as is) or UNAVAILABLE (retry)
 * @param message why, naming the event
 */
public record Rejection(int index, Event event, String code, String message) {

  public static final String FAILED_PRECONDITION = "FAILED_PRECONDITION";
  public static final String UNAVAILABLE = "UNAVAILABLE";
}
