package io.varve.perf.sla;

import io.varve.cli.VarveCli;
import io.varve.perf.environment.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code varve bench} command in a JVM of its own, as a user runs it, so that no run inherits
 * another's JIT state, heap or threads; on this JVM's classpath, which holds the CLI.
 */
final class BenchProcess {

  private final Path home;

  BenchProcess(Path home) {
    this.home = home;
  }

  /**
   * Runs {@code varve bench <args>}, behind {@code prefix} (e.g. {@code taskset -c 0}), with its
   * standard output in {@code stdout} and its standard error in {@code stderr} (null: this JVM's);
   * returns its exit status.
   */
  int run(List<String> prefix, List<String> args, Path stdout, Path stderr)
      throws IOException, InterruptedException {
    List<String> bench = new ArrayList<>(List.of("bench"));
    bench.addAll(args);
    List<String> command = new ArrayList<>(prefix);
    command.addAll(ChildJvm.command(List.of("-Dvarve.home=" + home), VarveCli.class, bench));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(
                stdout == null
                    ? ProcessBuilder.Redirect.DISCARD
                    : ProcessBuilder.Redirect.to(stdout.toFile()));
    builder.redirectError(
        stderr == null
            ? ProcessBuilder.Redirect.INHERIT
            : ProcessBuilder.Redirect.to(stderr.toFile()));
    return builder.start().waitFor();
  }

  /** The last {@code n} lines of a file, for a failure message. */
  static String tail(Path file, int n) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e.getMessage() + ")";
    }
  }
}
