package io.varve.reshaper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A job run in a child JVM from the built jar, as {@code ./varve migrate} runs it, so that a test
 * can kill it with SIGKILL; and the ranges its savepoint records.
 */
public final class ChildJob {

  private ChildJob() {}

  /** Starts {@code migrate --config job}, its output to {@code log}. */
  public static Process start(Path job, Path log) throws Exception {
    return start(List.of("migrate", "--config", job.toString()), log);
  }

  /**
   * Starts the reshaper's command line with these arguments, its output to {@code log}, with these
   * system properties ({@code -Dkey=value}) besides the launcher's JVM options.
   */
  public static Process start(List<String> args, Path log, String... properties) throws Exception {
    Path jar = Path.of(System.getProperty("varve.reshaper.jar", "target/varve-reshaper.jar"));
    Path options = jar.getParent().getParent().resolve("jvm-options");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String line : Files.readAllLines(options)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        command.add(line.trim());
      }
    }
    // a child killed with SIGKILL cannot remove Spark's scratch directories: beside its log, in
    // the test's own directory, rather than in /tmp
    command.add("-Dspark.local.dir=" + log.toAbsolutePath().getParent().resolve("spark-local"));
    command.addAll(List.of(properties));
    command.addAll(
        List.of(
            "-cp",
            jar + ":" + jar.getParent().resolve("lib") + "/*",
            "io.varve.reshaper.cli.ReshaperCli"));
    command.addAll(args);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /**
   * Starts {@code migrate --config job} and kills it with SIGKILL once {@code savepoint} records at
   * least {@code ranges} ranges done (or after 150 s, or when it ends by itself); asserts it still
   * ran when killed, and returns the ranges recorded.
   */
  public static List<Integer> killAfter(Path job, Path log, Path savepoint, int ranges)
      throws Exception {
    Process child = start(job, log);
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
      while (doneRanges(savepoint).size() < ranges
          && System.nanoTime() < deadline
          && child.isAlive()) {
        Thread.sleep(100); // between looks at the savepoint
      }
      assertThat(child.isAlive()).as("the job still runs when it is killed").isTrue();
    } finally {
      child.destroyForcibly(); // SIGKILL
      child.waitFor(30, TimeUnit.SECONDS);
    }
    return doneRanges(savepoint);
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
