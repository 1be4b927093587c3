package io.varve.perf.environment;

import io.varve.local.server.LocalVarveServerSettings;
import java.util.List;

/**
 * The JVM a benchmark's server runs in: its heap and its other options (the garbage collector and
 * its settings).
 *
 * @param heap the heap, both initial and maximum, like {@code 1g}
 * @param options the JVM's other options
 */
public record ServerJvm(String heap, List<String> options) {

  /** {@code varve up}'s: a heap of 1 GiB, G1. */
  public static final ServerJvm UP =
      new ServerJvm("1g", LocalVarveServerSettings.DEFAULT_JVM_OPTIONS);

  public ServerJvm {
    options = List.copyOf(options);
  }

  /** Another heap with these options. */
  public ServerJvm withHeap(String newHeap) {
    return new ServerJvm(newHeap, options);
  }

  /** The JVM's command-line options: the heap (initial and maximum), then the others. */
  public List<String> arguments() {
    List<String> all = new java.util.ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap));
    all.addAll(options);
    return all;
  }

  /** This heap with other options. */
  public ServerJvm withOptions(List<String> newOptions) {
    return new ServerJvm(heap, newOptions);
  }
}
