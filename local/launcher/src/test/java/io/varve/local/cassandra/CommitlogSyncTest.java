package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommitlogSyncTest {

  @Test
  void parses_the_forms_it_prints() {
    assertThat(CommitlogSync.parse("batch")).isEqualTo(CommitlogSync.batch());
    assertThat(CommitlogSync.parse("group:5ms"))
        .isEqualTo(CommitlogSync.group(Duration.ofMillis(5)))
        .hasToString("group:5ms");
    assertThat(CommitlogSync.batch()).hasToString("batch");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"periodic", "group", "group:ms", "group:5s", "group:0ms", "group:1001ms", "BATCH"})
  void rejects_other_modes_and_windows(String text) {
    assertThatThrownBy(() -> CommitlogSync.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(text);
  }

  @Test
  void group_window_must_be_whole_milliseconds() {
    assertThatThrownBy(() -> CommitlogSync.group(Duration.ofNanos(1_500_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("commitlogSync.groupWindow");
  }
}
