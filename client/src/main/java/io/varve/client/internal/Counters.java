package io.varve.client.internal;

import io.varve.client.ClientCounters;
import java.util.concurrent.atomic.LongAdder;

/** The client's counters, incremented by its calls. Thread safe. */
public final class Counters {
  final LongAdder calls = new LongAdder();
  final LongAdder hedgesSent = new LongAdder();
  final LongAdder hedgesWon = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder handshakes = new LongAdder();
  final LongAdder throttled = new LongAdder();

  /**
   * The counts now. A hedge is counted won after its call was counted, so the calls are read last:
   * a snapshot never has more hedges won than hedges sent or calls.
   */
  public ClientCounters snapshot() {
    long throttledNow = throttled.sum();
    long handshakesNow = handshakes.sum();
    long retriesNow = retries.sum();
    long won = hedgesWon.sum();
    long sent = hedgesSent.sum();
    return new ClientCounters(calls.sum(), sent, won, retriesNow, handshakesNow, throttledNow);
  }
}
