package io.varve.cli.perf;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time used by the processes of a benchmark (this client, the server, Cassandra) over a phase,
 * read from the operating system, so a reader sees where the machine's cores went.
 */
final class CpuMeter {

  private final Map<String, Long> pids = new LinkedHashMap<>();

  CpuMeter add(String name, long pid) {
    pids.put(name, pid);
    return this;
  }

  /** CPU time of each process so far. */
  Map<String, Duration> sample() {
    Map<String, Duration> cpu = new LinkedHashMap<>();
    pids.forEach((name, pid) -> cpu.put(name, pid == ProcessHandle.current().pid()
        ? Duration.ofNanos(((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime())
        : ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO)));
    return cpu;
  }

  /** Adds each process's CPU time since {@code before} to {@code totals}. */
  void accumulate(Map<String, Duration> before, Map<String, Duration> totals) {
    sample().forEach((name, now) -> totals.merge(name, now.minus(before.get(name)), Duration::plus));
  }
}
