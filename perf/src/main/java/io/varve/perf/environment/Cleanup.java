package io.varve.perf.environment;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * What a benchmark run started or created, undone in reverse order, once: by whichever of the end
 * of the run and Ctrl-C (a shutdown hook) comes first. A step that fails is reported and the next
 * one still runs. Thread-safe.
 */
public final class Cleanup {

  /** One undo step. */
  @FunctionalInterface
  public interface Step {
    void run() throws Exception;
  }

  private final Deque<Map.Entry<String, Step>> steps = new ArrayDeque<>();
  private final String name;
  private final PrintStream err;

  /**
   * Undo steps whose failures are reported on {@code err} as {@code <name>: could not <step>:
   * <error>}.
   */
  public Cleanup(String name, PrintStream err) {
    this.name = name;
    this.err = err;
  }

  /**
   * Adds a step, to run before every step added earlier; {@code what} completes "could not ...".
   */
  public synchronized void add(String what, Step step) {
    steps.push(Map.entry(what, step));
  }

  /** Whether some step has not run yet. */
  public synchronized boolean pending() {
    return !steps.isEmpty();
  }

  /** Runs the steps not run yet, the last added first. */
  public synchronized void run() {
    while (!steps.isEmpty()) {
      Map.Entry<String, Step> step = steps.pop();
      try {
        step.getValue().run();
      } catch (Exception e) {
        err.println(name + ": could not " + step.getKey() + ": " + e);
      }
    }
  }
}
