package io.varve.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The reshaper run as its own JVM, as {@code varve migrate} runs it (Spark has its own classpath,
 * which the CLI's would break). Its output is the command's. Under a checkout, the jars of {@code
 * spark/target} and the JVM options of {@code spark/jvm-options}; under a release
 * (release/README.md), the jars {@code lib/reshaper.classpath} lists and {@code
 * conf/reshaper-jvm-options}.
 */
public final class ReshaperProcess {

  private ReshaperProcess() {}

  /**
   * The command line of {@code ReshaperCli <args>} under {@code home}, a checkout or a release.
   *
   * @throws IOException when the reshaper is not built under {@code home}
   */
  public static List<String> command(Path home, List<String> args) throws IOException {
    Path releaseClasspath = home.resolve("lib/reshaper.classpath");
    String classpath;
    Path jvmOptions;
    if (Files.isRegularFile(releaseClasspath)) {
      List<String> jars = new ArrayList<>();
      for (String jar : Files.readAllLines(releaseClasspath)) {
        if (!jar.isBlank()) {
          jars.add(home.resolve("lib").resolve(jar.trim()).toString());
        }
      }
      classpath = String.join(File.pathSeparator, jars);
      jvmOptions = home.resolve("conf/reshaper-jvm-options");
    } else {
      Path spark = home.resolve("spark/target");
      Path jar = spark.resolve("varve-reshaper.jar");
      if (!Files.isRegularFile(jar)) {
        throw new IOException(
            "the reshaper is not built: no "
                + jar
                + " (./varve builds it; or mvn -f spark/pom.xml package -DskipTests)");
      }
      classpath = jar + File.pathSeparator + spark.resolve("lib/*");
      jvmOptions = home.resolve("spark/jvm-options");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String line : Files.readAllLines(jvmOptions)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        command.add(line.trim());
      }
    }
    command.add("-Dvarve.home=" + home);
    command.add("-cp");
    command.add(classpath);
    command.add("io.varve.reshaper.cli.ReshaperCli");
    command.addAll(args);
    return command;
  }

  /**
   * Runs {@code ReshaperCli <args>} and returns its exit status.
   *
   * @throws IOException when the reshaper is not built under {@code home}
   */
  static int run(Path home, List<String> args) throws IOException, InterruptedException {
    List<String> command = command(home, args);
    Process process = new ProcessBuilder(command).inheritIO().start();
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      process.destroy(); // Ctrl-C: the job stops and keeps its savepoint
      throw e;
    }
  }
}
