package io.varve.reshaper.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.Resolution;
import io.varve.reshaper.plan.SourceScan;
import io.varve.reshaper.plan.TargetColumn;
import io.varve.reshaper.plan.TargetLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CQL text of a bad row writes what the writer would have written. */
class UpsertsTest {
  private static final MigrationPlan PLAN =
      new MigrationPlan(
          new SourceScan("", 1, java.util.List.of(), java.util.List.of()),
          new TargetLayout(
              "ks.\"Notes\"",
              List.of(
                  new TargetColumn("k", DataTypes.INT, 0, null, -1, -1),
                  new TargetColumn("a", DataTypes.TEXT, 1, null, 2, 3),
                  new TargetColumn("b", DataTypes.TEXT, 4, null, 5, 6),
                  new TargetColumn("c", DataTypes.BLOB, 7, null, -1, -1)),
              1,
              1,
              "",
              ""),
          null,
          new Resolution(CopyMode.DIRECT, null, -1, null, new int[0]),
          "f");

  private static byte[] text(String s) {
    return TargetRow.bytes(TypeCodecs.TEXT.encode(s, ProtocolVersion.DEFAULT));
  }

  private static byte[] integer(int i) {
    return TargetRow.bytes(TypeCodecs.INT.encode(i, ProtocolVersion.DEFAULT));
  }

  @Test
  void a_row_without_kept_timestamps_is_one_insert_of_its_present_values() {
    Upserts upserts = new Upserts(PLAN, 0, 0);
    TargetRow row =
        new TargetRow(
            new byte[][] {integer(1), text("it's\nthere"), null, new byte[] {1, 2}}, null, null, 0);
    assertThat(upserts.cql(row, upserts.of(row)))
        .isEqualTo("INSERT INTO ks.\"Notes\" (k, a, c) VALUES (1, 'it''s\nthere', 0x0102)");
  }

  @Test
  void a_fixed_timestamp_and_ttl_are_part_of_the_statement() {
    Upserts upserts = new Upserts(PLAN, 1_000, 60);
    TargetRow row = new TargetRow(new byte[][] {integer(1), text("x"), null, null}, null, null, 0);
    assertThat(upserts.cql(row, upserts.of(row)))
        .isEqualTo(
            "INSERT INTO ks.\"Notes\" (k, a) VALUES (1, 'x') USING TIMESTAMP 1000 AND TTL 60");
  }

  @Test
  void cells_of_different_writetimes_are_one_batch_of_an_insert_each() {
    Upserts upserts = new Upserts(PLAN, 0, 0);
    long none = TargetRow.NO_WRITETIME;
    TargetRow row =
        new TargetRow(
            new byte[][] {integer(1), text("x"), text("y"), null},
            new long[] {none, 1000, 2000, none},
            new int[] {0, 86_400, 0, 0},
            2000);
    assertThat(upserts.cql(row, upserts.of(row)))
        .isEqualTo(
            "BEGIN UNLOGGED BATCH"
                + " INSERT INTO ks.\"Notes\" (k, a) VALUES (1, 'x') USING TIMESTAMP 1000 AND TTL 86400;"
                + " INSERT INTO ks.\"Notes\" (k, b) VALUES (1, 'y') USING TIMESTAMP 2000 AND TTL 0;"
                + " APPLY BATCH");
  }
}
