package io.varve.perf.environment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark's child process in a JVM of its own: this JVM's {@code java} and classpath, so that
 * the child runs the same build, with no JIT state, heap or threads shared with the benchmark.
 */
public final class ChildJvm {

  private ChildJvm() {}

  /** The command that runs {@code main} with {@code args}, after the JVM's {@code options}. */
  public static List<String> command(List<String> options, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    return command;
  }
}
