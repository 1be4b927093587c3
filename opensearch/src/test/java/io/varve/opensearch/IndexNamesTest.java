package io.varve.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IndexNamesTest {

  /** Hourly slices of one namespace from 1980 on: what a backfill from years back names. */
  static List<String> hourly(int count) {
    List<String> names = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      names.add("fuzz_ds.events_a." + (316_224_000L + i * 3600));
    }
    return names;
  }

  @Test
  void batches_keep_every_name_once_in_order_and_each_line_under_the_limit() {
    List<String> names = hourly(5000);
    List<List<String>> batches = IndexNames.batches(names, IndexNames.MAX_CHARS);
    assertThat(batches).hasSizeGreaterThan(1);
    assertThat(batches.stream().flatMap(List::stream).toList()).isEqualTo(names);
    for (List<String> batch : batches) {
      assertThat(String.join(",", batch).length()).isLessThanOrEqualTo(IndexNames.MAX_CHARS);
    }
    assertThat(IndexNames.batches(List.of(), 100)).isEmpty();
    assertThat(IndexNames.batches(List.of("a", "b"), 100)).containsExactly(List.of("a", "b"));
  }

  @Test
  void a_search_names_its_indices_when_they_fit_and_one_namespace_pattern_otherwise() {
    assertThat(IndexNames.compact(hourly(3), IndexNames.MAX_CHARS)).isEqualTo(hourly(3));
    List<String> pattern = IndexNames.compact(hourly(744), IndexNames.MAX_CHARS);
    assertThat(pattern).hasSize(1);
    assertThat(pattern.get(0)).startsWith("fuzz_ds.events_a.").endsWith("*");
    // the pattern matches every slice named and none of a namespace whose name extends this one
    String regex = pattern.get(0).replace(".", "\\.").replace("*", ".*");
    assertThat(hourly(744)).allMatch(n -> n.matches(regex));
    assertThat("fuzz_ds.events_ab.316224000").doesNotMatch(regex);
  }

  @Test
  void names_of_two_namespaces_are_never_merged_into_one_pattern() {
    List<String> names = new ArrayList<>(hourly(400));
    names.add("fuzz_ds.other.316224000");
    assertThatThrownBy(() -> IndexNames.compact(names, 100))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
