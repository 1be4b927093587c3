package io.varve.core.index;

/** What an index document holds. */
public enum DocumentMode {
  /**
   * The event's identity and its indexed fields; a search reads the full events back from the
   * primary store. Small index, suited to high write rates.
   */
  REVERSE_INDEX,
  /** Also every item of the event; a search answers from the index alone. */
  FULL_EVENT
}
