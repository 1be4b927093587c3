package io.varve.bench.load;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** The servers' load a run's properties ask for (docs/bench.md#load). */
public final class ServerLoad {

  private ServerLoad() {}

  /** The sources of the servers' load the properties name; none by default. */
  public static List<LoadSource> sources(Properties props, PrintStream warnings) {
    List<LoadSource> sources = new ArrayList<>();
    return sources;
  }
}
