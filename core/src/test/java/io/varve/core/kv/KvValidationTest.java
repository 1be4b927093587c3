package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class KvValidationTest {

  private static final KvChunking CHUNKING = KvChunking.DEFAULT;

  private static List<KvItem> validate(KvItem... items) {
    return KvValidation.items(
        List.of(items), Collections.nCopies(items.length, false), KvLimits.DEFAULT, CHUNKING);
  }

  private static KvItem item(String key, int size) {
    return KvItem.of(key.getBytes(), new byte[size]);
  }

  @Test
  void values_above_the_threshold_count_against_the_largest_value_not_the_batch() {
    assertThat(validate(item("a", 30 * KvLimits.MIB), item("b", 3 * KvLimits.MIB))).hasSize(2);
    assertThat(validate(item("a", CHUNKING.threshold()), item("b", CHUNKING.maxValueBytes())))
        .hasSize(2);
  }

  @Test
  void a_value_above_the_largest_is_refused_naming_it() {
    assertThatThrownBy(() -> validate(item("a", 1), item("b", CHUNKING.maxValueBytes() + 1)))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("items[1].value")
        .hasMessageContaining("kv.chunks.maxValueBytes");
  }

  @Test
  void chunked_values_of_one_request_are_bounded_together() {
    assertThatThrownBy(() -> validate(item("a", 40 * KvLimits.MIB), item("b", 30 * KvLimits.MIB)))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("items")
        .hasMessageContaining("together");
  }

  @Test
  void values_at_the_threshold_are_inline_and_bounded_by_the_request_bytes() {
    KvItem[] five = new KvItem[5];
    for (int i = 0; i < 5; i++) {
      five[i] = item("k" + i, CHUNKING.threshold());
    }
    assertThatThrownBy(() -> validate(five))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("bytes of keys and values");
    assertThat(CHUNKING.chunked(CHUNKING.threshold())).isFalse();
    assertThat(CHUNKING.chunked(CHUNKING.threshold() + 1L)).isTrue();
    assertThat(CHUNKING.chunkCount(CHUNKING.threshold() + 1L)).isEqualTo(2);
  }
}
