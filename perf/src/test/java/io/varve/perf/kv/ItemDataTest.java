package io.varve.perf.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItemDataTest {

  static String key(String prefix, long n) {
    return new String(ItemData.key(prefix, n), StandardCharsets.UTF_8);
  }

  @Test
  void keys_are_the_prefix_and_the_number_padded_to_eight_digits_so_they_sort_by_number() {
    assertThat(key("w-", 0)).isEqualTo("w-00000000");
    assertThat(key("w-", 42)).isEqualTo("w-00000042");
    assertThat(key("", 12_345_678)).isEqualTo("12345678");
    assertThat(key("p", 123_456_789_012L)).isEqualTo("p123456789012");
    assertThat(List.of(key("k", 9), key("k", 10), key("k", 99_999_999)))
        .isSortedAccordingTo(String::compareTo);
    assertThatThrownBy(() -> ItemData.key("k", -1)).hasMessageContaining("n: -1");
  }

  @Test
  void an_item_is_as_large_as_asked_and_its_value_the_same_for_the_same_number() {
    ItemData data = new ItemData(42);
    ItemData.Item item = data.item("k", 7, 1024);
    assertThat(item.bytes()).isEqualTo(1024);
    assertThat(data.item("k", 7, 1024).value()).isEqualTo(item.value());
  }
}
