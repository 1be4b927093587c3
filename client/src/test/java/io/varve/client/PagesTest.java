package io.varve.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PagesTest {

  /** Pages by token: "" → [a b] partial, "1" → [c] partial, "2" → [d e], "3" → [f] last. */
  static final Map<String, Page<String>> SERVED =
      Map.of(
          "", new Page<>(List.of("a", "b"), "1", true),
          "1", new Page<>(List.of("c"), "2", true),
          "2", new Page<>(List.of("d", "e"), "3", false),
          "3", new Page<>(List.of("f"), "", false));

  final List<String> asked = new ArrayList<>();

  Pages<String> pages(Paging paging) {
    return new Pages<>(
        token -> {
          asked.add(token);
          return CompletableFuture.completedFuture(SERVED.get(token));
        },
        paging);
  }

  @Test
  void partial_pages_are_returned_as_served_when_accepted() {
    List<Page<String>> pages = new ArrayList<>();
    pages(Paging.ACCEPT_PARTIAL_PAGES).forEach(pages::add);
    assertThat(pages)
        .extracting(Page::items)
        .containsExactly(List.of("a", "b"), List.of("c"), List.of("d", "e"), List.of("f"));
    assertThat(pages).extracting(Page::partial).containsExactly(true, true, false, false);
  }

  @Test
  void partial_pages_are_merged_with_what_follows_until_a_complete_page() {
    List<Page<String>> pages = new ArrayList<>();
    pages(Paging.COMPLETE_PAGES).forEach(pages::add);
    assertThat(pages)
        .extracting(Page::items)
        .containsExactly(List.of("a", "b", "c", "d", "e"), List.of("f"));
    assertThat(pages).extracting(Page::partial).containsExactly(false, false);
    assertThat(pages.get(0).nextPageToken()).isEqualTo("3");
  }

  @Test
  void items_cover_every_page_once_in_order_and_each_iteration_reads_again() {
    assertThat(pages(Paging.ACCEPT_PARTIAL_PAGES).items())
        .containsExactly("a", "b", "c", "d", "e", "f");
    assertThat(asked).containsExactly("", "1", "2", "3");
    Pages<String> pages = pages(Paging.COMPLETE_PAGES);
    assertThat(pages.items().count()).isEqualTo(6);
    assertThat(pages.items().count()).isEqualTo(6);
  }
}
