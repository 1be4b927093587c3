package io.varve.perf.dataplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident memory, from the {@code VmRSS} line of {@code /proc/<pid>/status}. */
final class Rss {

  private Rss() {}

  /** The resident bytes of process {@code pid}. */
  static long bytes(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          // "VmRSS:	 1234567 kB"
          String[] fields = line.substring("VmRSS:".length()).trim().split("\\s+");
          return Long.parseLong(fields[0]) * 1024;
        }
      }
      throw new IllegalStateException("no VmRSS in /proc/" + pid + "/status");
    } catch (IOException e) {
      throw new UncheckedIOException("reading the memory of process " + pid, e);
    }
  }

  /** Bytes in MiB, rounded. */
  static long mib(long bytes) {
    return Math.round(bytes / 1048576.0);
  }
}
