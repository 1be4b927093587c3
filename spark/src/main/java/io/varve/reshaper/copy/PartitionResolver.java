package io.varve.reshaper.copy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Resolves collisions inside one source partition ({@code CopyMode.IN_PARTITION}): rows are held
 * until the source partition ends, one per target key, then passed on. A conflict under {@code
 * reshape.onConflict: fail} is kept, not thrown: the caller stops at it. Not thread-safe.
 */
final class PartitionResolver {
  private final ConflictRule rule;
  private final int targetKeyColumns;
  private final RowSink next;
  private final Map<RowKey, Resolved> pending = new LinkedHashMap<>();
  private String conflict;

  PartitionResolver(ConflictRule rule, int targetKeyColumns, RowSink next) {
    this.rule = rule;
    this.targetKeyColumns = targetKeyColumns;
    this.next = next;
  }

  void accept(TargetRow row) {
    Resolved resolved = pending.merge(row.key(targetKeyColumns), Resolved.of(row), rule::merge);
    if (resolved.conflict() != null && conflict == null) {
      conflict = resolved.conflict();
    }
  }

  /** The first conflict met, or null. */
  String conflict() {
    return conflict;
  }

  /** The source partition ended: its resolved rows go on. */
  void endPartition() {
    pending.values().forEach(r -> next.accept(r.row()));
    pending.clear();
  }
}
