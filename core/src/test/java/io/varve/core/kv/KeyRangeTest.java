package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KeyRangeTest {

  static byte[] k(String s) {
    return s.getBytes();
  }

  static KeyRange range(String start, boolean startInclusive, String end, boolean endInclusive) {
    return new KeyRange(
        Optional.ofNullable(start).map(KeyRangeTest::k),
        startInclusive,
        Optional.ofNullable(end).map(KeyRangeTest::k),
        endInclusive);
  }

  @Test
  void bounds_are_inclusive_or_exclusive_as_given_and_absent_bounds_are_open() {
    assertThat(range("b", true, "d", false).contains(k("b"))).isTrue();
    assertThat(range("b", false, "d", false).contains(k("b"))).isFalse();
    assertThat(range("b", true, "d", true).contains(k("d"))).isTrue();
    assertThat(range("b", true, "d", false).contains(k("d"))).isFalse();
    assertThat(range(null, true, "d", false).contains(new byte[0])).isTrue();
    assertThat(range("b", true, null, false).contains(new byte[] {(byte) 0xFF, (byte) 0xFF}))
        .isTrue();
    assertThat(KeyRange.ALL.contains(new byte[0])).isTrue();
  }

  @Test
  void keys_compare_as_unsigned_bytes_as_cassandra_blobs_do() {
    assertThat(KeyRange.compare(new byte[] {(byte) 0x80}, new byte[] {0x7F})).isPositive();
    assertThat(KeyRange.compare(k("a"), k("ab"))).isNegative();
    assertThat(range("a", true, "b", false).contains(new byte[] {'a', (byte) 0xFF})).isTrue();
  }

  @Test
  void empty_ranges_are_those_no_key_can_match() {
    assertThat(range("b", true, "b", true).empty()).isFalse();
    assertThat(range("b", true, "b", false).empty()).isTrue();
    assertThat(range("c", true, "b", true).empty()).isTrue();
    assertThat(range(null, true, "b", false).empty()).isFalse();
  }

  @Test
  void the_rest_after_a_key_follows_the_clustering_order() {
    KeyRange r = range("a", true, "z", true);
    KeyRange asc = r.after(k("m"), ClusteringOrder.ASC);
    assertThat(List.of("m", "n", "z", "a").stream().filter(s -> asc.contains(k(s))))
        .containsExactly("n", "z");
    KeyRange desc = r.after(k("m"), ClusteringOrder.DESC);
    assertThat(List.of("m", "l", "a", "z").stream().filter(s -> desc.contains(k(s))))
        .containsExactly("l", "a");
    KeyRange open = KeyRange.ALL.after(k("m"), ClusteringOrder.DESC);
    assertThat(open.contains(new byte[0])).isTrue();
    assertThat(open.contains(k("m"))).isFalse();
  }

  @Test
  void a_keys_predicate_continues_with_the_keys_after_the_last_in_its_order() {
    ItemPredicate keys = new ItemPredicate.Keys(List.of(k("d"), k("b"), k("a")));
    ItemPredicate rest = keys.after(k("b"), ClusteringOrder.DESC);
    assertThat(((ItemPredicate.Keys) rest).keys()).containsExactly(k("a"));
    ItemPredicate ascRest =
        new ItemPredicate.Keys(List.of(k("a"), k("b"), k("d"))).after(k("b"), ClusteringOrder.ASC);
    assertThat(((ItemPredicate.Keys) ascRest).keys()).containsExactly(k("d"));
  }
}
