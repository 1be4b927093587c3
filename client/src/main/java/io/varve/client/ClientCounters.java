package io.varve.client;

/**
 * What a client did since it was built, for a caller's metrics: every count only grows. Read at any
 * time from any thread ({@link VarveClient#counters()}).
 */
public interface ClientCounters {

  /** Calls made by the caller (a hedged or retried call counts once). */
  long calls();

  /** Requests sent to a second endpoint because the first had not answered within the delay. */
  long hedgesSent();

  /** Hedged calls whose answer came from the hedge rather than from the first request. */
  long hedgesWon();

  /** Requests sent again after an UNAVAILABLE or RESOURCE_EXHAUSTED answer. */
  long retries();

  /** Namespace handshakes completed (the first one and the background refreshes). */
  long handshakes();
}
