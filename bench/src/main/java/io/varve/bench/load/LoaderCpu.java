package io.varve.bench.load;

import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * The loader's own CPU: the CPU time of this JVM (client threads, binding, measurement), so that a
 * result shows what each operation cost the client and nobody takes the loader's limit for the
 * server's. {@code loader.cpu_ms}: milliseconds of CPU over all cores.
 */
public final class LoaderCpu implements LoadSource {

  public static final String CPU_MS = "loader.cpu_ms";

  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  @Override
  public String name() {
    return "loader CPU";
  }

  @Override
  public Map<String, Double> totals() {
    return Map.of(CPU_MS, os.getProcessCpuTime() / 1e6);
  }
}
