package io.varve.server.controlplane;

import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.FanoutController;
import io.varve.core.store.NamespaceRecord;
import java.util.List;

/**
 * What the data plane knows of a namespace: its stored record, validated settings, effective
 * configuration, time slices (newest first) and the adaptive read fan-out learned for it.
 */
public record NamespaceEntry(NamespaceRecord record, NamespaceSettings settings, List<PersistenceConfiguration> config,
    List<TimeSlice> slices, FanoutController fanout) {

  public NamespaceEntry withSlices(List<TimeSlice> newSlices) {
    return new NamespaceEntry(record, settings, config, List.copyOf(newSlices), fanout);
  }
}
