package io.varve.verify.reliability;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples a process's resident memory ({@code VmRSS}) every 200 ms on a daemon thread and keeps the
 * maximum; at the end the kernel's own peak ({@code VmHWM}) is taken too, so a spike between two
 * samples is not missed.
 */
final class RssSampler implements AutoCloseable {

  private final long pid;
  private final AtomicLong maxBytes = new AtomicLong();
  private final Thread thread;
  private volatile boolean running = true;

  RssSampler(long pid) {
    this.pid = pid;
    this.thread = new Thread(this::loop, "verify-rss");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      sample("VmRSS");
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample(String field) {
    OptionalLong bytes = ProcStatus.read(pid, field);
    if (bytes.isPresent()) {
      maxBytes.accumulateAndGet(bytes.getAsLong(), Math::max);
    }
  }

  /** The largest resident size seen, in bytes; 0 if {@code /proc} could not be read. */
  long maxBytes() {
    return maxBytes.get();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join(1000);
    sample("VmHWM");
  }

  /** Megabytes (MiB) of a JVM size such as {@code 1g} or {@code 512m}. */
  static long megabytes(String jvmSize) {
    String digits = jvmSize.substring(0, jvmSize.length() - 1);
    char unit = Character.toLowerCase(jvmSize.charAt(jvmSize.length() - 1));
    return switch (unit) {
      case 'g' -> Long.parseLong(digits) * 1024;
      case 'm' -> Long.parseLong(digits);
      default ->
          throw new IllegalArgumentException("heap: " + jvmSize + " (expected: like 512m or 1g)");
    };
  }
}
