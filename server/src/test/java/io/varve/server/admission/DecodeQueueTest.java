package io.varve.server.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DecodeQueueTest {

  @Test
  void bodies_wait_in_order_and_the_oldest_wait_is_reported_to_admission() throws Exception {
    try (DecodeQueue queue = new DecodeQueue(1)) {
      assertThat(queue.oldestWait()).isEqualTo(Duration.ZERO);
      CountDownLatch running = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      List<Integer> order = new CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(3);
      queue.execute(
          () -> {
            running.countDown();
            await(release);
            done.countDown();
          });
      assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
      for (int i = 1; i <= 2; i++) {
        int n = i;
        queue.execute(
            () -> {
              order.add(n);
              done.countDown();
            });
      }
      Thread.sleep(120);
      assertThat(queue.waiting()).isEqualTo(2);
      assertThat(queue.oldestWait()).isGreaterThanOrEqualTo(Duration.ofMillis(100));

      release.countDown();
      assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(order).containsExactly(1, 2);
      assertThat(queue.waiting()).isZero();
      assertThat(queue.oldestWait()).isEqualTo(Duration.ZERO);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
