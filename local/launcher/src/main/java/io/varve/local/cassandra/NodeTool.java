package io.varve.local.cassandra;

import io.varve.local.LocalServerException;
import io.varve.local.Product;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cassandra's {@code nodetool} on a running node, run from the node's own jars as {@code
 * bin/nodetool} would: a JVM of its own with Cassandra's Java 17 module access, talking to the
 * node's local-only JMX port.
 */
public final class NodeTool {

  public static final String MAIN_CLASS = "org.apache.cassandra.tools.NodeTool";

  private NodeTool() {}

  /**
   * The command that runs {@code nodetool <arguments>} against {@code node}, {@code java} first.
   */
  static List<String> command(LocalCassandraSettings node, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(node.javaExecutable().toString());
    command.add("-Xmx256m");
    command.addAll(CassandraCommandLine.JAVA17_MODULE_ACCESS);
    command.add(
        "-Dlogback.configurationFile="
            + node.confDirectory().resolve(CassandraConfigWriter.TOOLS_LOGBACK));
    command.add("-cp");
    command.add(node.libDirectory().resolve("*").toString());
    command.add(MAIN_CLASS);
    command.addAll(
        List.of("-h", LocalCassandraSettings.ADDRESS, "-p", Integer.toString(node.jmxPort())));
    command.addAll(arguments);
    return command;
  }

  /**
   * Runs {@code nodetool <arguments>} against {@code node} and returns what it printed to standard
   * output (its warnings go to standard error).
   *
   * @throws LocalServerException if it fails or outlasts the timeout; the message quotes its output
   */
  public static String run(LocalCassandraSettings node, List<String> arguments, Duration timeout) {
    String what = "nodetool " + String.join(" ", arguments) + " on " + node.address();
    Path stdout = null;
    Path stderr = null;
    try {
      stdout = Files.createTempFile("varve-nodetool", ".out");
      stderr = Files.createTempFile("varve-nodetool", ".err");
      Process process =
          new ProcessBuilder(command(node, arguments))
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .start();
      boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!exited) {
        process.destroyForcibly();
      }
      String printed = Files.readString(stdout, StandardCharsets.UTF_8).strip();
      if (!exited || process.exitValue() != 0) {
        String all = (printed + "\n" + Files.readString(stderr, StandardCharsets.UTF_8)).strip();
        throw new LocalServerException(
            Product.CASSANDRA,
            what
                + (exited ? " failed (exit " + process.exitValue() + ")" : " timed out")
                + ":\n  "
                + all.replace("\n", "\n  "));
      }
      return printed;
    } catch (IOException e) {
      throw new LocalServerException(Product.CASSANDRA, "Cannot run " + what + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalServerException(Product.CASSANDRA, "Interrupted while " + what + " ran", e);
    } finally {
      deleteQuietly(stdout);
      deleteQuietly(stderr);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      file.toFile().delete();
    }
  }
}
