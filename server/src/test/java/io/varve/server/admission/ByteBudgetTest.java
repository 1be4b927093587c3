package io.varve.server.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ByteBudgetTest {

  @Test
  void admits_up_to_the_capacity_and_refuses_beyond_without_taking_anything() {
    ByteBudget budget = new ByteBudget("write", 100);
    ByteBudget.Permit first = budget.open();
    ByteBudget.Permit second = budget.open();

    assertThat(first.tryAdd(60)).isTrue();
    assertThat(second.tryAdd(50)).isFalse();
    assertThat(second.tryAdd(40)).isTrue();
    assertThat(second.tryAdd(1)).isFalse();

    assertThat(budget.inUse()).isEqualTo(100);
    assertThat(second.held()).isEqualTo(40);
  }

  @Test
  void closing_gives_back_everything_held_once() {
    ByteBudget budget = new ByteBudget("write", 100);
    ByteBudget.Permit permit = budget.open();
    permit.tryAdd(30);
    permit.tryAdd(20);

    permit.close();
    permit.close();

    assertThat(budget.inUse()).isZero();
    assertThat(budget.open().tryAdd(100)).isTrue();
  }

  @Test
  void a_closed_permit_takes_nothing_more() {
    // a cancelled request whose body is still streaming in must not hold bytes after its release
    ByteBudget budget = new ByteBudget("write", 100);
    ByteBudget.Permit permit = budget.open();
    permit.tryAdd(10);
    permit.close();

    assertThat(permit.tryAdd(10)).isFalse();
    assertThat(budget.inUse()).isZero();
  }

  @Test
  void a_request_larger_than_the_budget_takes_the_rest_once_others_hold_at_most_half() {
    ByteBudget budget = new ByteBudget("write", 100);
    ByteBudget.Permit large = budget.open();
    large.tryAdd(60);
    ByteBudget.Permit huge = budget.open();

    assertThat(huge.tryAdd(1_000)).as("others hold more than half").isFalse();
    large.close();
    ByteBudget.Permit small = budget.open();
    assertThat(small.tryAdd(30)).isTrue();
    assertThat(huge.tryAdd(1_000)).as("others hold 30 of 100").isTrue();
    assertThat(huge.held()).isEqualTo(70);
    assertThat(huge.tryAdd(1_000)).as("further chunks of the same request").isTrue();
    assertThat(budget.inUse()).isEqualTo(100);
    assertThat(budget.open().tryAdd(1)).as("nothing else until it ends").isFalse();
    assertThat(budget.open().tryAdd(1_000)).as("never two at once").isFalse();

    huge.close();
    small.close();
    assertThat(budget.inUse()).isZero();
  }

  @Test
  void many_small_requests_in_flight_do_not_keep_a_huge_one_out() {
    // sixteen readers of one large value each hold the minimum at admission; the first to learn
    // its response's size must get through, not all sixteen be refused
    ByteBudget budget = new ByteBudget("read", 1_000);
    List<ByteBudget.Permit> readers = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      ByteBudget.Permit p = budget.open();
      assertThat(p.tryAdd(10)).isTrue();
      readers.add(p);
    }
    assertThat(readers.get(0).tryAdd(5_000)).isTrue();
    for (ByteBudget.Permit other : readers.subList(1, 16)) {
      assertThat(other.tryAdd(5_000)).isFalse();
    }
    readers.get(0).close();
    assertThat(readers.get(1).tryAdd(5_000)).isTrue();
    readers.forEach(ByteBudget.Permit::close);
    assertThat(budget.inUse()).isZero();
  }

  @Test
  void concurrent_acquire_and_release_never_exceed_the_capacity_nor_leak() throws Exception {
    ByteBudget budget = new ByteBudget("read", 1_000);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> admitted = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      admitted.add(
          pool.submit(
              () -> {
                int n = 0;
                for (int i = 0; i < 20_000; i++) {
                  try (ByteBudget.Permit p = budget.open()) {
                    if (p.tryAdd(100) && p.tryAdd(50)) {
                      n++;
                    }
                    assertThat(budget.inUse()).isLessThanOrEqualTo(1_000);
                  }
                }
                return n;
              }));
    }
    int total = 0;
    for (Future<Integer> f : admitted) {
      total += f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();

    assertThat(total).isPositive();
    assertThat(budget.inUse()).isZero();
  }
}
