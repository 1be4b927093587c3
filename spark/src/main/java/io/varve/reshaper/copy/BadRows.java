package io.varve.reshaper.copy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** The rows of one task that could not be written: a count and the first few, described. */
final class BadRows implements Serializable {
  private static final long serialVersionUID = 1L;
  private final int keep;
  private final AtomicLong count = new AtomicLong();
  private final List<String> lines = new ArrayList<>();

  BadRows(int keep) {
    this.keep = keep;
  }

  void add(String line) {
    count.incrementAndGet();
    synchronized (lines) {
      if (lines.size() < keep) {
        lines.add(line);
      }
    }
  }

  long count() {
    return count.get();
  }

  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }
}
