package io.varve.reshaper.copy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionGroupingTest {

  /** Collects what reaches it, as "partition:row". */
  static final class Collected implements RowSink {
    final List<String> rows = new ArrayList<>();
    boolean finished;

    @Override
    public void accept(TargetRow row) {
      rows.add(text(row.values[0]) + ":" + text(row.values[1]));
    }

    @Override
    public void finish() {
      finished = true;
    }
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static TargetRow row(String partition, String clustering, int valueBytes) {
    return new TargetRow(
        new byte[][] {
          partition.getBytes(StandardCharsets.UTF_8),
          clustering.getBytes(StandardCharsets.UTF_8),
          new byte[valueBytes]
        },
        null,
        null,
        0);
  }

  @Test
  void interleaved_partitions_go_on_grouped_in_the_order_of_their_first_row() {
    Collected out = new Collected();
    PartitionGrouping grouping = new PartitionGrouping(out, 1);
    for (int i = 0; i < 6; i++) {
      grouping.accept(row("p" + (i % 3), "r" + i, 10));
    }
    assertThat(out.rows).as("held until the window ends").isEmpty();
    grouping.finish();
    assertThat(out.rows).containsExactly("p0:r0", "p0:r3", "p1:r1", "p1:r4", "p2:r2", "p2:r5");
    assertThat(out.finished).isTrue();
  }

  @Test
  void the_window_is_bounded_in_rows_and_in_bytes() {
    Collected out = new Collected();
    PartitionGrouping grouping = new PartitionGrouping(out, 1);
    for (int i = 0; i < PartitionGrouping.MAX_ROWS; i++) {
      grouping.accept(row("p" + (i % 2), "r" + i, 1));
    }
    assertThat(out.rows).hasSize(PartitionGrouping.MAX_ROWS);

    Collected big = new Collected();
    PartitionGrouping bytes = new PartitionGrouping(big, 1);
    int rowBytes = 1 << 20;
    for (int i = 0; i < PartitionGrouping.MAX_BYTES / rowBytes; i++) {
      bytes.accept(row("p" + (i % 2), "r" + i, rowBytes));
    }
    assertThat(big.rows).hasSize((int) (PartitionGrouping.MAX_BYTES / rowBytes));
  }
}
