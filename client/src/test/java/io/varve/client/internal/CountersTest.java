package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.client.ClientCounters;
import org.junit.jupiter.api.Test;

class CountersTest {

  @Test
  void a_snapshot_keeps_the_counts_of_its_moment() {
    Counters counters = new Counters();
    counters.calls.add(3);
    counters.hedgesSent.increment();
    ClientCounters first = counters.snapshot();

    counters.calls.add(2);
    counters.hedgesWon.increment();

    assertThat(first).isEqualTo(new ClientCounters(3, 1, 0, 0, 0, 0));
    assertThat(counters.snapshot()).isEqualTo(new ClientCounters(5, 1, 1, 0, 0, 0));
  }

  @Test
  void the_counts_of_a_window_leave_out_what_came_before_it() {
    Counters counters = new Counters();
    // a warm-up: 10 calls, 4 hedged, 3 of them won by the hedge, a retry, a handshake
    counters.calls.add(10);
    counters.hedgesSent.add(4);
    counters.hedgesWon.add(3);
    counters.retries.increment();
    counters.handshakes.increment();
    ClientCounters afterWarmup = counters.snapshot();
    // the measured calls: 20, 2 hedged, 1 won, a background handshake
    counters.calls.add(20);
    counters.hedgesSent.add(2);
    counters.hedgesWon.increment();
    counters.handshakes.increment();

    ClientCounters measured = counters.snapshot().minus(afterWarmup);

    assertThat(measured).isEqualTo(new ClientCounters(20, 2, 1, 0, 1, 0));
    assertThat(counters.snapshot().minus(counters.snapshot()))
        .isEqualTo(new ClientCounters(0, 0, 0, 0, 0, 0));
  }

  @Test
  void snapshots_taken_in_the_wrong_order_are_refused() {
    Counters counters = new Counters();
    ClientCounters earlier = counters.snapshot();
    counters.calls.increment();
    counters.hedgesSent.increment();
    ClientCounters later = counters.snapshot();

    assertThatThrownBy(() -> earlier.minus(later))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "earlier: ClientCounters[calls=1, hedgesSent=1, hedgesWon=0, retries=0, handshakes=0, throttled=0]"
                + " (expected: a snapshot taken before ClientCounters[calls=0, hedgesSent=0,"
                + " hedgesWon=0, retries=0, handshakes=0, throttled=0])");
  }
}
