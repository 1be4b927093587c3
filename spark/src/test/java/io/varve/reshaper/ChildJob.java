package io.varve.reshaper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A job run in a child JVM from the built jar, as {@code ./varve migrate} runs it, so that a test
 * can kill it with SIGKILL; and the ranges its savepoint records.
 */
public final class ChildJob {

  private ChildJob() {}

  /** Starts {@code migrate --config job}, its output to {@code log}. */
  public static Process start(Path job, Path log) throws Exception {
    Path jar = Path.of(System.getProperty("varve.reshaper.jar", "target/varve-reshaper.jar"));
    Path options = jar.getParent().getParent().resolve("jvm-options");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String line : Files.readAllLines(options)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        command.add(line.trim());
      }
    }
    command.addAll(
        List.of(
            "-cp",
            jar + ":" + jar.getParent().resolve("lib") + "/*",
            "io.varve.reshaper.cli.ReshaperCli",
            "migrate",
            "--config",
            job.toString()));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** The indexes of the ranges {@code savepoint} records as done; none before it exists. */
  public static List<Integer> doneRanges(Path savepoint) throws Exception {
    if (!Files.exists(savepoint)) {
      return List.of();
    }
    for (String line : Files.readAllLines(savepoint)) {
      if (line.startsWith("done=") && line.length() > 5) {
        return Arrays.stream(line.substring(5).split(",")).map(Integer::valueOf).toList();
      }
    }
    return List.of();
  }
}
