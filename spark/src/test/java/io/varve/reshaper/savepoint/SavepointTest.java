package io.varve.reshaper.savepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.reshaper.config.ConfigException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SavepointTest {
  @TempDir Path dir;

  @Test
  void finished_ranges_survive_a_reopen_only_once_flushed() {
    Savepoint first = Savepoint.open(dir, "ks.a-to-ks.b", "plan1", 8);
    first.markDone(3);
    first.markDone(5);
    assertThat(Savepoint.open(dir, "ks.a-to-ks.b", "plan1", 8).doneCount()).isZero();
    first.flush();

    Savepoint reopened = Savepoint.open(dir, "ks.a-to-ks.b", "plan1", 8);
    assertThat(reopened.doneRanges()).containsExactly(3, 5);
    assertThat(reopened.isDone(3)).isTrue();
    assertThat(reopened.isDone(4)).isFalse();
  }

  @Test
  void a_savepoint_of_another_plan_or_split_count_is_refused() {
    Savepoint s = Savepoint.open(dir, "job", "plan1", 8);
    s.markDone(0);
    s.flush();
    assertThatThrownBy(() -> Savepoint.open(dir, "job", "plan2", 8))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("savepoints.path: ")
        .hasMessageContaining("Delete the file");
    assertThatThrownBy(() -> Savepoint.open(dir, "job", "plan1", 16))
        .isInstanceOf(ConfigException.class);
  }
}
