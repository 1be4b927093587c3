package io.varve.verify.reliability;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code key=value} lines of a run, printed as they come, and the checks that failed. Not
 * thread safe: phases report from the thread that runs them.
 */
public final class Results {

  private final PrintStream out;
  private final List<String> failures = new ArrayList<>();

  public Results(PrintStream out) {
    this.out = out;
  }

  /** Prints {@code key=value}. */
  public void put(String key, Object value) {
    out.println(key + "=" + format(value));
    out.flush();
  }

  /**
   * Records a check: prints nothing when it holds, and {@code <key>.check=fail (<what was
   * expected>)} and counts a failure when it does not.
   */
  public boolean check(String key, boolean holds, String expected) {
    if (!holds) {
      failures.add(key + ": expected " + expected);
      put(key + ".check", "fail (expected " + expected + ")");
    }
    return holds;
  }

  /** Records a failure that is not a comparison (a phase that could not run, for instance). */
  public void fail(String key, String why) {
    failures.add(key + ": " + why);
    put(key, "fail (" + why + ")");
  }

  public List<String> failures() {
    return List.copyOf(failures);
  }

  public boolean passed() {
    return failures.isEmpty();
  }

  static String format(Object value) {
    if (value instanceof Double d) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    return String.valueOf(value);
  }
}
