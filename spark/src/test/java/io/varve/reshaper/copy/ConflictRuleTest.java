package io.varve.reshaper.copy;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.reshaper.config.OnConflict;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.Resolution;
import io.varve.reshaper.plan.SourceScan;
import io.varve.reshaper.plan.TargetColumn;
import io.varve.reshaper.plan.TargetLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ConflictRuleTest {
  private static final List<TargetColumn> COLUMNS =
      List.of(
          new TargetColumn("partnerid", DataTypes.TEXT, 0, null, -1, -1),
          new TargetColumn("id", DataTypes.TEXT, 1, null, -1, -1),
          new TargetColumn("seen_date", DataTypes.TIMESTAMP, 2, null, -1, -1),
          new TargetColumn("note", DataTypes.TEXT, 3, null, -1, -1));

  private static MigrationPlan plan(OnConflict rule) {
    return new MigrationPlan(
        new SourceScan("", 1, java.util.List.of(), java.util.List.of()),
        new TargetLayout("ks.t", COLUMNS, 1, 2, "", ""),
        null,
        new Resolution(
            CopyMode.IN_PARTITION,
            rule,
            rule.needsColumn() ? 2 : -1,
            rule.needsColumn() ? DataTypes.TIMESTAMP : null,
            new int[0]),
        "f");
  }

  private static TargetRow row(long seenMillis, String note, long writetime) {
    byte[][] values = {
      bytes("p"),
      bytes("i"),
      TargetRow.bytes(
          TypeCodecs.TIMESTAMP.encode(Instant.ofEpochMilli(seenMillis), ProtocolVersion.DEFAULT)),
      note == null ? null : bytes(note)
    };
    return new TargetRow(values, null, null, writetime);
  }

  private static byte[] bytes(String s) {
    return TargetRow.bytes(TypeCodecs.TEXT.encode(s, ProtocolVersion.DEFAULT));
  }

  private static TargetRow resolve(ConflictRule rule, List<TargetRow> rows) {
    Resolved resolved = Resolved.of(rows.get(0));
    for (TargetRow r : rows.subList(1, rows.size())) {
      resolved = rule.merge(resolved, Resolved.of(r));
    }
    assertThat(resolved.sourceRows()).isEqualTo(rows.size());
    return resolved.row();
  }

  @Test
  void the_winner_does_not_depend_on_the_order_rows_arrive_in() {
    List<TargetRow> rows =
        new ArrayList<>(
            List.of(
                row(5, "a", 1), row(9, "b", 3), row(9, "c", 2), row(1, "d", 9), row(9, null, 4)));
    for (OnConflict rule :
        List.of(OnConflict.KEEP_MAX, OnConflict.KEEP_MIN, OnConflict.KEEP_NEWEST_WRITETIME)) {
      ConflictRule conflictRule = new ConflictRule(plan(rule));
      TargetRow first = resolve(conflictRule, rows);
      Random random = new Random(1);
      for (int i = 0; i < 20; i++) {
        Collections.shuffle(rows, random);
        assertThat(resolve(conflictRule, rows)).as(rule.toString()).isSameAs(first);
      }
    }
  }

  @Test
  void keep_max_keeps_the_greatest_value_and_breaks_ties_by_the_row_bytes() {
    ConflictRule rule = new ConflictRule(plan(OnConflict.KEEP_MAX));
    TargetRow c = row(9, "c", 0);
    assertThat(resolve(rule, List.of(row(5, "z", 0), row(9, "b", 0), c))).isSameAs(c);
  }

  @Test
  void keep_min_and_keep_newest_writetime() {
    TargetRow oldest = row(1, "a", 1);
    TargetRow newestWrite = row(3, "b", 99);
    List<TargetRow> rows = List.of(row(2, "x", 5), oldest, newestWrite);
    assertThat(resolve(new ConflictRule(plan(OnConflict.KEEP_MIN)), rows)).isSameAs(oldest);
    assertThat(resolve(new ConflictRule(plan(OnConflict.KEEP_NEWEST_WRITETIME)), rows))
        .isSameAs(newestWrite);
  }

  @Test
  void fail_accepts_identical_rows_and_reports_different_ones_as_a_conflict() {
    ConflictRule rule = new ConflictRule(plan(OnConflict.FAIL));
    Resolved same = rule.merge(Resolved.of(row(1, "a", 1)), Resolved.of(row(1, "a", 2)));
    assertThat(same.conflict()).isNull();
    assertThat(same.row()).isNotNull();

    Resolved conflict = rule.merge(Resolved.of(row(1, "a", 1)), Resolved.of(row(2, "a", 1)));
    assertThat(conflict.row()).isNull();
    assertThat(conflict.conflict())
        .startsWith("reshape conflict: source rows {partnerid='p'," + " id='i'")
        .endsWith("land on the same target key (reshape.onConflict: fail)");
    // the conflict outlives later rows, and every source row is still counted
    Resolved later = rule.merge(Resolved.of(row(3, "b", 1)), conflict);
    assertThat(later.conflict()).isEqualTo(conflict.conflict());
    assertThat(later.sourceRows()).isEqualTo(3);
  }
}
