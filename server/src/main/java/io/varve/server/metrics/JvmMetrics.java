package io.varve.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmHeapPressureMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The server's process as an operator watches it, beside Varve's own metrics: heap and off-heap
 * pools ({@code jvm_memory_*}, {@code jvm_buffer_*}), garbage collection ({@code
 * jvm_gc_pause_seconds} per collector and cause, {@code jvm_gc_overhead} the share of the last
 * minute spent collecting, {@code jvm_memory_usage_after_gc} the long-lived share of the heap),
 * threads, classes, CPU ({@code process_cpu_usage}, {@code system_load_average_1m}), open file
 * descriptors and uptime. A drain, a read or a write that stalls while {@code jvm_gc_pause_seconds}
 * rises waited for the collector, not for Cassandra. Closed with the server: the collectors'
 * listeners are removed.
 */
public final class JvmMetrics implements AutoCloseable {

  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final JvmHeapPressureMetrics heapPressure = new JvmHeapPressureMetrics();

  /** Registers the process's metrics in {@code registry}. */
  public JvmMetrics(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    heapPressure.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  @Override
  public void close() {
    gc.close();
    heapPressure.close();
  }
}
