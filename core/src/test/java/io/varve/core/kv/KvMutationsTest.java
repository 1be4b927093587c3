package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KvMutationsTest {

  private static final KvLimits LIMITS = KvLimits.DEFAULT;

  @Test
  void mutations_are_grouped_by_record_in_order_of_first_appearance() {
    List<RecordMutation> records =
        KvMutations.records(
            List.of(
                put("b", "k1"),
                put("a", "k1"),
                new KvMutation.Delete("b", new ItemPredicate.Keys(List.of(bytes("k2")))),
                put("b", "k3")),
            LIMITS);
    assertThat(records).extracting(RecordMutation::id).containsExactly("b", "a");
    assertThat(records.get(0).puts()).hasSize(2);
    assertThat(records.get(0).deletes()).hasSize(1);
  }

  @Test
  void overlapping_mutations_of_one_record_are_refused_naming_the_later_one() {
    assertField(List.of(put("r", "k"), put("r", "k")), "mutations[1].put.items[0].key");
    assertField(
        List.of(new KvMutation.Delete("r", new ItemPredicate.All()), put("x", "k"), put("r", "k")),
        "mutations[2].put.items[0].key");
    assertField(
        List.of(
            put("r", "m"),
            new KvMutation.Delete(
                "r",
                new ItemPredicate.Range(
                    new KeyRange(Optional.of(bytes("a")), true, Optional.of(bytes("z")), false)))),
        "mutations[1].delete.predicate");
    // the same key in two records, and a delete beside a put of another key, do not overlap
    KvMutations.records(
        List.of(
            put("r", "k"),
            put("s", "k"),
            new KvMutation.Delete("r", new ItemPredicate.Keys(List.of(bytes("j"))))),
        LIMITS);
  }

  @Test
  void counts_records_rows_and_bytes_are_bounded_like_one_put_items() {
    assertField(List.of(), "mutations");
    List<KvMutation> records = new ArrayList<>();
    for (int i = 0; i <= KvMutations.MAX_RECORDS; i++) {
      records.add(put("r" + i, "k"));
    }
    assertField(records, "mutations");
    List<KvMutation> rows = new ArrayList<>();
    for (int i = 0; i <= LIMITS.maxItemsPerRequest(); i++) {
      rows.add(new KvMutation.Delete("r", new ItemPredicate.Keys(List.of(bytes("k" + i)))));
    }
    assertField(rows, "mutations");
    List<KvMutation> bytes = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      bytes.add(
          new KvMutation.Put("r", List.of(KvItem.of(bytes("k" + i), new byte[KvLimits.MIB]))));
    }
    assertField(bytes, "mutations");
  }

  @Test
  void within_names_a_nested_field_below_its_prefix() {
    assertThatThrownBy(() -> KvMutations.within("mutations[4].", () -> KvValidation.id("", LIMITS)))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo("mutations[4].id");
              assertThat(e.getMessage()).startsWith("mutations[4].id: \"\" (expected: 1..");
            });
  }

  private static void assertField(List<KvMutation> mutations, String field) {
    assertThatThrownBy(() -> KvMutations.records(mutations, LIMITS))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  private static KvMutation put(String id, String key) {
    return new KvMutation.Put(id, List.of(KvItem.of(bytes(key), bytes("v"))));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
