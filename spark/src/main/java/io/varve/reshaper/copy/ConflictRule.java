package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.config.OnConflict;
import io.varve.reshaper.plan.MigrationPlan;
import java.io.Serializable;
import java.nio.ByteBuffer;

/**
 * Picks the winner of two rows with the same target key, following {@code reshape.onConflict}. The
 * result depends on the two rows only, never on their order: a tie on the compared column or
 * writetime goes to the row whose values, compared column by column as bytes, are greater.
 * Thread-safe.
 */
public final class ConflictRule implements Serializable {
  private static final long serialVersionUID = 1L;
  private final MigrationPlan plan;
  private transient TypeCodec<Object> codec;

  public ConflictRule(MigrationPlan plan) {
    this.plan = plan;
  }

  /**
   * Resolves two sets of rows with one target key: the winner of both, or the first conflict. Never
   * throws: under {@code fail}, two different rows make a {@link Resolved} that carries the
   * conflict, which the task reports and the driver stops the job for.
   */
  public Resolved merge(Resolved a, Resolved b) {
    long rows = a.sourceRows() + b.sourceRows();
    if (a.conflict() != null || b.conflict() != null) {
      return new Resolved(null, rows, a.conflict() != null ? a.conflict() : b.conflict());
    }
    if (plan.resolution().onConflict() == OnConflict.FAIL && a.row().compareValues(b.row()) != 0) {
      int columns = plan.target().columns().size();
      return new Resolved(
          null,
          rows,
          "reshape conflict: source rows "
              + a.row().describe(plan, columns)
              + " and "
              + b.row().describe(plan, columns)
              + " land on the same target key (reshape.onConflict: fail)");
    }
    return new Resolved(pick(a.row(), b.row()), rows, null);
  }

  /** The row to keep of {@code a} and {@code b}, two rows that do not conflict. */
  TargetRow pick(TargetRow a, TargetRow b) {
    int c =
        switch (plan.resolution().onConflict()) {
          case KEEP_MAX -> compareColumn(a, b);
          case KEEP_MIN -> -compareColumn(a, b);
          case KEEP_NEWEST_WRITETIME -> Long.compare(a.newestWritetime, b.newestWritetime);
          case FAIL -> 0;
        };
    if (c == 0) {
      c = a.compareValues(b);
    }
    return c >= 0 ? a : b;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private int compareColumn(TargetRow a, TargetRow b) {
    byte[] x = a.values[plan.resolution().ruleColumn()];
    byte[] y = b.values[plan.resolution().ruleColumn()];
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    if (codec == null) {
      codec = CodecRegistry.DEFAULT.codecFor(plan.resolution().ruleType());
    }
    Comparable vx = (Comparable) codec.decode(ByteBuffer.wrap(x), ProtocolVersion.DEFAULT);
    Comparable vy = (Comparable) codec.decode(ByteBuffer.wrap(y), ProtocolVersion.DEFAULT);
    return vx.compareTo(vy);
  }
}
