package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BytePageTest {

  /**
   * Pages a list of item sizes as GetItems does (each page starts after the last item taken) and
   * checks each page's bound, that every item comes once in order, and the item limit across pages.
   */
  @Property(tries = 500)
  void pages_stay_within_the_bound_unless_single_and_return_every_item_once(
      @ForAll @Size(max = 200) List<@IntRange(min = 0, max = 3_000_000) Integer> sizes,
      @ForAll @IntRange(min = 1, max = 4_000_000) int pageSize,
      @ForAll @IntRange(min = 0, max = 250) int itemLimit) {
    long limit = itemLimit == 0 ? Long.MAX_VALUE : itemLimit;
    List<Integer> returned = new ArrayList<>();
    int next = 0;
    boolean more = true;
    int pages = 0;
    while (more) {
      BytePage page = new BytePage(pageSize, limit - returned.size());
      long bytes = 0;
      int taken = 0;
      while (next < sizes.size() && page.offer(sizes.get(next))) {
        bytes += sizes.get(next);
        returned.add(next++);
        taken++;
        if (page.done()) {
          break;
        }
      }
      assertThat(page.bytes()).isEqualTo(bytes);
      assertThat(page.items()).isEqualTo(taken);
      assertThat(bytes <= pageSize || taken == 1)
          .as("a page of " + bytes + " bytes in " + taken + " items")
          .isTrue();
      more = page.more() && next < sizes.size();
      assertThat(taken > 0 || !more).as("a page that may be followed holds an item").isTrue();
      assertThat(++pages).isLessThanOrEqualTo(sizes.size() + 1);
    }
    int expected = (int) Math.min(sizes.size(), limit);
    assertThat(returned).hasSize(expected);
    for (int i = 0; i < expected; i++) {
      assertThat(returned.get(i)).isEqualTo(i);
    }
  }

  @Test
  void a_refused_item_closes_the_page_and_a_copy_plans_without_taking() {
    BytePage page = new BytePage(10, 100);
    assertThat(page.offer(6)).isTrue();
    BytePage plan = page.copy();
    assertThat(plan.offer(4)).isTrue();
    assertThat(plan.offer(1)).isFalse();
    assertThat(plan.more()).isTrue();
    assertThat(page.bytes()).isEqualTo(6);
    assertThat(page.done()).isFalse();
    assertThat(page.offer(5)).isFalse();
    assertThat(page.offer(1)).as("once refused, every later item is").isFalse();
  }

  @Test
  void an_item_larger_than_the_page_comes_alone_and_the_limit_stops_without_more() {
    BytePage page = new BytePage(10, 100);
    assertThat(page.offer(50)).isTrue();
    assertThat(page.offer(0)).isFalse();
    BytePage limited = new BytePage(1000, 2);
    assertThat(limited.offer(1)).isTrue();
    assertThat(limited.offer(1)).isTrue();
    assertThat(limited.done()).isTrue();
    assertThat(limited.more()).isFalse();
    assertThat(new BytePage(1000, 0).offer(1)).isFalse();
  }

  @Test
  void a_page_of_tiny_items_is_full_at_the_most_items_and_the_next_page_goes_on() {
    BytePage page = new BytePage(16 * 1024 * 1024, Long.MAX_VALUE);
    for (int i = 0; i < BytePage.MAX_ITEMS; i++) {
      assertThat(page.offer(3)).isTrue();
    }
    assertThat(page.offer(3)).as("item " + (BytePage.MAX_ITEMS + 1)).isFalse();
    assertThat(page.items()).isEqualTo(BytePage.MAX_ITEMS);
    assertThat(page.more()).as("a full page: the next one goes on").isTrue();
    // the response memory counts each item's objects and framing, not only its three bytes
    assertThat(ResponseBound.heldBytes(page.bytes(), page.items()))
        .isEqualTo(BytePage.MAX_ITEMS * (3L + ResponseBound.ITEM_OVERHEAD_BYTES));
  }
}
