package io.varve.client.internal;

import io.varve.client.ClientCounters;
import java.util.concurrent.atomic.LongAdder;

/** The client's counters, incremented by its calls. Thread safe. */
public final class Counters implements ClientCounters {
  final LongAdder calls = new LongAdder();
  final LongAdder hedgesSent = new LongAdder();
  final LongAdder hedgesWon = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder handshakes = new LongAdder();

  @Override
  public long calls() {
    return calls.sum();
  }

  @Override
  public long hedgesSent() {
    return hedgesSent.sum();
  }

  @Override
  public long hedgesWon() {
    return hedgesWon.sum();
  }

  @Override
  public long retries() {
    return retries.sum();
  }

  @Override
  public long handshakes() {
    return handshakes.sum();
  }
}
