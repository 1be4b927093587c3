package io.varve.client;

/**
 * What a client did, as counted at one moment: a snapshot that never changes ({@link
 * VarveClient#counters()} takes a new one). The counts run from when the client was built; the
 * counts of a window, such as a benchmark's measured part without its warm-up, are the difference
 * of two snapshots:
 *
 * <pre>{@code
 * ClientCounters before = varve.counters();
 * ... // the calls to count
 * ClientCounters during = varve.counters().minus(before);
 * }</pre>
 *
 * <p>Counts are read one after the other while calls go on: a snapshot taken during calls may miss
 * what the calls in progress are doing at that moment, but it never holds a hedge won without the
 * hedge sent and the call it belongs to.
 *
 * @param calls calls made by the caller (a hedged or retried call counts once, a throttled one too)
 * @param hedgesSent requests sent to a second endpoint because the first had not answered within
 *     the delay
 * @param hedgesWon hedged calls whose answer came from the hedge rather than from the first request
 * @param retries requests sent again after an UNAVAILABLE or RESOURCE_EXHAUSTED answer
 * @param handshakes namespace handshakes completed (the first one and the background refreshes)
 * @param throttled calls refused by the client itself, never sent: its calls in flight and waiting
 *     were at their bound ({@link VarveClientBuilder#maxCallsInFlight})
 */
public record ClientCounters(
    long calls, long hedgesSent, long hedgesWon, long retries, long handshakes, long throttled) {

  /**
   * The counts between {@code earlier} and this snapshot, {@code earlier} taken first from the same
   * client.
   *
   * @throws IllegalArgumentException when a count of {@code earlier} is above this one's (a
   *     snapshot of another client, or the two swapped)
   */
  public ClientCounters minus(ClientCounters earlier) {
    ClientCounters window =
        new ClientCounters(
            calls - earlier.calls,
            hedgesSent - earlier.hedgesSent,
            hedgesWon - earlier.hedgesWon,
            retries - earlier.retries,
            handshakes - earlier.handshakes,
            throttled - earlier.throttled);
    if (window.calls < 0
        || window.hedgesSent < 0
        || window.hedgesWon < 0
        || window.retries < 0
        || window.handshakes < 0
        || window.throttled < 0) {
      throw new IllegalArgumentException(
          "earlier: " + earlier + " (expected: a snapshot taken before " + this + ")");
    }
    return window;
  }
}
