package io.varve.verify.reliability;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the reshaper as its own JVM, as {@code ./varve migrate} runs it (the jars of {@code
 * spark/target} and the JVM options of {@code spark/jvm-options}), its output copied to a log file
 * and its progress lines parsed.
 */
final class ReshaperRun {

  private static final Pattern PROGRESS = Pattern.compile("ranges (\\d+)/(\\d+)");
  private static final Pattern RESUMED = Pattern.compile("\\((\\d+) done by earlier runs\\)");

  private final Process process;
  private final Thread pump;
  private volatile int rangesDone;
  private volatile int rangesTotal;
  private volatile int rangesDoneEarlier = -1;

  private ReshaperRun(Process process, Path log) throws IOException {
    this.process = process;
    PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8));
    this.pump =
        new Thread(
            () -> {
              try (out;
                  BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(
                              process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  out.println(line);
                  out.flush();
                  parse(line);
                }
              } catch (IOException e) {
                // the process is gone; its exit status says how
              }
            },
            "verify-reshaper-output");
    pump.setDaemon(true);
    pump.start();
  }

  /**
   * Starts {@code ReshaperCli migrate [validate] --config <job>} with its output in {@code log}.
   */
  static ReshaperRun start(Path varveHome, Path job, boolean validate, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    for (String line : Files.readAllLines(varveHome.resolve("spark/jvm-options"))) {
      if (!line.isBlank() && !line.startsWith("#")) {
        command.add(line.trim());
      }
    }
    Path spark = varveHome.resolve("spark/target");
    command.addAll(
        List.of(
            "-Dvarve.home=" + varveHome,
            "-cp",
            spark.resolve("varve-reshaper.jar") + File.pathSeparator + spark.resolve("lib/*"),
            "io.varve.reshaper.cli.ReshaperCli",
            "migrate"));
    if (validate) {
      command.add("validate");
    }
    command.addAll(List.of("--config", job.toString()));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    return new ReshaperRun(process, log);
  }

  private void parse(String line) {
    int[] parsed = parseLine(line);
    if (parsed[1] > 0) {
      rangesDone = parsed[0];
      rangesTotal = parsed[1];
    }
    if (parsed[2] >= 0) {
      rangesDoneEarlier = parsed[2];
    }
  }

  /**
   * From a progress or summary line: {ranges done, ranges in all, ranges done by earlier runs}, -1
   * for what the line does not say.
   */
  static int[] parseLine(String line) {
    int[] parsed = {-1, -1, -1};
    Matcher progress = PROGRESS.matcher(line);
    if (progress.find()) {
      parsed[0] = Integer.parseInt(progress.group(1));
      parsed[1] = Integer.parseInt(progress.group(2));
    }
    Matcher resumed = RESUMED.matcher(line);
    if (resumed.find()) {
      parsed[2] = Integer.parseInt(resumed.group(1));
    }
    return parsed;
  }

  int rangesDone() {
    return rangesDone;
  }

  int rangesTotal() {
    return rangesTotal;
  }

  /** The ranges the summary line says earlier runs had done, if it was printed. */
  OptionalInt rangesDoneEarlier() {
    return rangesDoneEarlier < 0 ? OptionalInt.empty() : OptionalInt.of(rangesDoneEarlier);
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL of the job's JVM. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
    pump.join(5000);
  }

  /** Waits for the exit status; kills the job if it runs longer than {@code timeoutSeconds}. */
  int await(long timeoutSeconds) throws InterruptedException {
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      kill();
      throw new IllegalStateException(
          "the reshaper did not finish within " + timeoutSeconds + " s");
    }
    pump.join(5000);
    return process.exitValue();
  }
}
