package io.varve.reshaper.copy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Resolves collisions inside one source partition ({@code CopyMode.IN_PARTITION}): rows are
 * held until the source partition ends, one per target key, then passed on. Not thread-safe.
 */
final class PartitionResolver {
  private final ConflictRule rule;
  private final int targetKeyColumns;
  private final RowSink next;
  private final Map<RowKey, TargetRow> pending = new LinkedHashMap<>();

  PartitionResolver(ConflictRule rule, int targetKeyColumns, RowSink next) {
    this.rule = rule;
    this.targetKeyColumns = targetKeyColumns;
    this.next = next;
  }

  void accept(TargetRow row) {
    pending.merge(row.key(targetKeyColumns), row, rule::pick);
  }

  /** The source partition ended: its resolved rows go on. */
  void endPartition() {
    pending.values().forEach(next::accept);
    pending.clear();
  }
}
