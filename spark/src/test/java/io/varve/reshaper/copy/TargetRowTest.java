package io.varve.reshaper.copy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TargetRowTest {

  private static TargetRow row(byte[]... values) {
    return new TargetRow(values, new long[values.length], new int[values.length], 0);
  }

  @Test
  void batch_bytes_count_as_cassandra_counts_a_batch_clustering_values_and_cells_not_the_key() {
    // (partnerid) key of 13 bytes, sk clustering of 10, id of 4 and date of 24: the row Cassandra
    // 5.0 counted 101 to 102 bytes for in the batch-size warnings of a DynamoDB copy
    TargetRow r = row(new byte[13], new byte[10], new byte[4], new byte[24]);

    assertThat(r.batchBytes(1, 2)).isEqualTo(10 + 24 + (4 + 20) + (24 + 20));
    assertThat(r.sizeBytes()).isEqualTo(51);
  }

  @Test
  void a_missing_value_is_no_cell_and_a_key_only_row_is_its_clustering_and_row_overhead() {
    assertThat(row(new byte[13], new byte[10], null, new byte[24]).batchBytes(1, 2))
        .isEqualTo(10 + 24 + (24 + 20));
    // the users' case: (partnerid) key, date and id clustering, no regular column
    assertThat(row(new byte[13], new byte[8], new byte[4]).batchBytes(1, 3)).isEqualTo(8 + 4 + 24);
  }
}
