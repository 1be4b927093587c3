package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.config.OnConflict;
import io.varve.reshaper.plan.MigrationPlan;
import java.io.Serializable;
import java.nio.ByteBuffer;

/**
 * Picks the winner of two rows with the same target key, following {@code reshape.onConflict}.
 * The result depends on the two rows only, never on their order: a tie on the compared column
 * or writetime goes to the row whose values, compared column by column as bytes, are greater.
 * Thread-safe.
 */
public final class ConflictRule implements Serializable {
  private static final long serialVersionUID = 1L;
  private final MigrationPlan plan;
  private transient TypeCodec<Object> codec;

  public ConflictRule(MigrationPlan plan) {
    this.plan = plan;
  }

  /** The row to keep of {@code a} and {@code b}. */
  public TargetRow pick(TargetRow a, TargetRow b) {
    OnConflict rule = plan.resolution().onConflict();
    int c = switch (rule) {
      case KEEP_MAX -> compareColumn(a, b);
      case KEEP_MIN -> -compareColumn(a, b);
      case KEEP_NEWEST_WRITETIME -> Long.compare(a.newestWritetime, b.newestWritetime);
      case FAIL -> {
        if (a.compareValues(b) != 0) {
          throw new ReshapeConflictException("reshape conflict: source rows "
              + a.describe(plan, plan.target().columns().size()) + " and "
              + b.describe(plan, plan.target().columns().size())
              + " land on the same target key (reshape.onConflict: fail)");
        }
        yield 0;
      }
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
