package io.varve.bench.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Binding initialisation failures of a run's client threads, reported after the run. */
final class InitFailures {
  private final List<Exception> failures = new CopyOnWriteArrayList<>();

  void add(Exception e) {
    failures.add(e);
  }

  boolean any() {
    return !failures.isEmpty();
  }

  /** The first failure's message with its causes, e.g. for the command's error line. */
  String describe() {
    Throwable t = failures.get(0);
    StringBuilder out = new StringBuilder(String.valueOf(t.getMessage()));
    for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      out.append(": ").append(c.getMessage());
    }
    return out
        + (failures.size() > 1 ? " (" + failures.size() + " client threads failed to start)" : "");
  }
}
