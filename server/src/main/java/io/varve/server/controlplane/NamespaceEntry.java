package io.varve.server.controlplane;

import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.FanoutController;
import io.varve.core.store.NamespaceRecord;
import io.varve.core.index.IndexSpec;
import java.util.List;
import java.util.Optional;

/**
 * What the data plane knows of a namespace: its stored record, validated settings, effective
 * configuration, index settings (when it has INDEX_STORAGE), time slices (newest first) and the
 * adaptive read fan-out learned for it.
 */
public record NamespaceEntry(NamespaceRecord record, NamespaceSettings settings, List<PersistenceConfiguration> config,
    Optional<IndexSpec> index, List<TimeSlice> slices, FanoutController fanout) {

  public NamespaceEntry withSlices(List<TimeSlice> newSlices) {
    return new NamespaceEntry(record, settings, config, index, List.copyOf(newSlices), fanout);
  }
}
