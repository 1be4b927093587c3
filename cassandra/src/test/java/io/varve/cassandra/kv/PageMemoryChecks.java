package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.VarveException;
import io.varve.core.read.ResponseMemory;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What {@link ItemReadTest} and {@link ScanReadTest} check alike of a page's {@link PageMemory}.
 */
final class PageMemoryChecks {

  private PageMemoryChecks() {}

  /** A response memory with room for one and a half {@link PageMemory#STEP}s. */
  static ResponseMemory roomForOneStepAndAHalf() {
    AtomicLong taken = new AtomicLong();
    return bytes -> {
      if (taken.addAndGet(bytes) > 3 * PageMemory.STEP / 2) {
        throw new VarveException(VarveException.Kind.RESOURCE_EXHAUSTED, "no room");
      }
    };
  }

  /** {@code read} is refused RESOURCE_EXHAUSTED. */
  static void assertRefused(ThrowingCallable read) {
    assertThatThrownBy(read)
        .isInstanceOf(CompletionException.class)
        .cause()
        .isInstanceOfSatisfying(
            VarveException.class,
            e -> assertThat(e.kind()).isEqualTo(VarveException.Kind.RESOURCE_EXHAUSTED));
  }

  /**
   * {@code held} adds up to {@code total}, and all but the last were held as rows arrived: at least
   * 3, each a step and at most one item of {@code itemBytes} more.
   */
  static void assertHeldInSteps(List<Long> held, long total, long itemBytes) {
    assertThat(held.stream().mapToLong(Long::longValue).sum())
        .as("in all, what the page holds: held once, never twice")
        .isEqualTo(total);
    assertThat(held.subList(0, held.size() - 1))
        .as("held as the rows arrived, a MiB and at most one item more each time")
        .hasSizeGreaterThanOrEqualTo(3)
        .allSatisfy(h -> assertThat(h).isBetween(PageMemory.STEP, PageMemory.STEP + itemBytes));
  }
}
