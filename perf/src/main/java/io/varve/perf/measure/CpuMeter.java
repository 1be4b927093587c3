package io.varve.perf.measure;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * CPU time used by the processes of a benchmark (this client, the server, Cassandra) over a phase,
 * read from the operating system, so a reader sees where the machine's cores went.
 *
 * <p>Where {@code /proc} lists a process's threads (Linux), each process {@code name} also gets a
 * {@code name_jit} entry: the part of its CPU time spent by the JVM's JIT compiler threads. A JVM
 * that is still compiling its hot paths spends cores on that instead of on requests, so a phase
 * measured before the compilers settle is not a steady-state figure.
 */
public final class CpuMeter {

  public static final String JIT_SUFFIX = "_jit";

  /**
   * The share of a round's CPU time under which the JIT compilers count as settled: the warm-ups of
   * {@code migrate} and of {@code kv}'s puts run until a round stays under it.
   */
  public static final double SETTLED_JIT_SHARE = 0.05;

  /** {@code /proc} counts CPU time in ticks of USER_HZ, which Linux fixes at 100 per second. */
  private static final long MILLIS_PER_TICK = 10;

  private final Map<String, Long> pids = new LinkedHashMap<>();

  /**
   * Measures process {@code pid} under {@code name} ({@code client}, {@code server}, {@code
   * cassandra}, ...).
   */
  public CpuMeter add(String name, long pid) {
    pids.put(name, pid);
    return this;
  }

  /** CPU time of each process so far, and of its JIT compiler threads where known. */
  public Map<String, Duration> sample() {
    Map<String, Duration> cpu = new LinkedHashMap<>();
    pids.forEach(
        (name, pid) -> {
          Duration total =
              pid == ProcessHandle.current().pid()
                  ? Duration.ofNanos(
                      ((com.sun.management.OperatingSystemMXBean)
                              ManagementFactory.getOperatingSystemMXBean())
                          .getProcessCpuTime())
                  : ProcessHandle.of(pid)
                      .flatMap(p -> p.info().totalCpuDuration())
                      .orElse(Duration.ZERO);
          cpu.put(name, total);
          jitTicks(pid)
              .ifPresent(
                  ticks -> cpu.put(name + JIT_SUFFIX, Duration.ofMillis(ticks * MILLIS_PER_TICK)));
        });
    return cpu;
  }

  /** Adds each process's CPU time since {@code before} to {@code totals}. */
  public void accumulate(Map<String, Duration> before, Map<String, Duration> totals) {
    sample()
        .forEach(
            (name, now) -> {
              if (before.containsKey(name)) {
                totals.merge(name, now.minus(before.get(name)), Duration::plus);
              }
            });
  }

  /**
   * Of the CPU time in {@code used} (as {@link #accumulate} fills it, all processes together), the
   * share of the JIT compiler threads; 0 when no CPU time was used.
   */
  public static double jitShare(Map<String, Duration> used) {
    double all = seconds(used);
    return all > 0 ? sum(used, true) / all : 0;
  }

  /** The CPU time in {@code used} of all processes together, in seconds. */
  public static double seconds(Map<String, Duration> used) {
    return sum(used, false);
  }

  /** Seconds of the {@code _jit} entries of {@code used}, or of the others. */
  private static double sum(Map<String, Duration> used, boolean jit) {
    return used.entrySet().stream()
        .filter(e -> e.getKey().endsWith(JIT_SUFFIX) == jit)
        .mapToDouble(e -> e.getValue().toNanos() / 1e9)
        .sum();
  }

  /**
   * CPU ticks so far of a process's JIT compiler threads ({@code C1/C2 CompilerThread*}), from
   * {@code /proc/<pid>/task/<tid>/stat}; empty where unavailable.
   */
  private static OptionalLong jitTicks(long pid) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    if (!Files.isDirectory(tasks)) {
      return OptionalLong.empty();
    }
    long jit = 0;
    try (Stream<Path> threads = Files.list(tasks)) {
      for (Path thread : (Iterable<Path>) threads::iterator) {
        String stat;
        try {
          stat = Files.readString(thread.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended
        }
        String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
          jit += ticks(stat).orElse(0);
        }
      }
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(jit);
  }

  /** utime + stime of one {@code stat} line (fields 14 and 15, counted after the command name). */
  static OptionalLong ticks(String stat) {
    int end = stat.lastIndexOf(')');
    if (end < 0) {
      return OptionalLong.empty();
    }
    String[] fields = stat.substring(end + 2).trim().split(" ");
    if (fields.length < 13) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
