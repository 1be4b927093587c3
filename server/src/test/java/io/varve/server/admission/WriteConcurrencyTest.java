package io.varve.server.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.server.admission.WriteConcurrency.Outcome;
import io.varve.server.admission.WriteConcurrency.Turn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WriteConcurrencyTest {

  static final Duration SLOW = Duration.ofSeconds(1);

  final AtomicLong now = new AtomicLong();
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final WriteConcurrency writes = new WriteConcurrency(64, SLOW, metrics, now::get);

  List<Turn> take(String rpc, int n) {
    List<Turn> turns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      turns.add(writes.acquire(rpc).orElseThrow());
    }
    return turns;
  }

  @Test
  void a_write_beyond_the_limit_is_refused_and_admitted_again_once_one_ends() {
    List<Turn> turns = take("PutItems", 64);
    assertThat(writes.acquire("PutItems")).isEmpty();
    assertThat(writes.acquire("WriteEventRecords")).as("each RPC has its own limit").isPresent();
    turns.get(0).end(Outcome.ANSWERED);
    assertThat(writes.acquire("PutItems")).isPresent();
    assertThat(metrics.get("varve.admission.write.inflight").tag("rpc", "PutItems").gauge().value())
        .isEqualTo(64);
  }

  @Test
  void slow_or_dropped_writes_shrink_the_limit_to_its_floor_and_quick_ones_grow_it_back() {
    List<Turn> turns = take("WriteEventRecords", 64);
    now.addAndGet(SLOW.toNanos() + 1);
    for (int i = 0; i < 40; i++) {
      turns.get(i).end(Outcome.ANSWERED);
    }
    int shrunk = writes.limit("WriteEventRecords");
    assertThat(shrunk).as("a tenth less per slow write, not below the floor").isEqualTo(8);
    turns.subList(40, 64).forEach(t -> t.end(Outcome.IGNORED));
    assertThat(writes.limit("WriteEventRecords")).as("ignored outcomes teach nothing").isEqualTo(8);

    for (int round = 0; round < 20; round++) {
      List<Turn> quick = take("WriteEventRecords", writes.limit("WriteEventRecords"));
      assertThat(writes.acquire("WriteEventRecords")).isEmpty();
      quick.forEach(t -> t.end(Outcome.ANSWERED));
    }
    assertThat(writes.limit("WriteEventRecords"))
        .as("quick writes that fill the limit grow it by one each")
        .isEqualTo(64);

    Optional<Turn> one = writes.acquire("WriteEventRecords");
    one.orElseThrow().end(Outcome.DROPPED);
    assertThat(writes.limit("WriteEventRecords")).isEqualTo(57);
  }

  @Test
  void a_maximum_below_the_floor_is_refused_naming_the_option() {
    assertThatThrownBy(() -> new WriteConcurrency(4, SLOW, metrics))
        .hasMessageContaining("maxConcurrentWrites: 4 (expected: at least 8)");
  }
}
