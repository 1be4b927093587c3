package io.varve.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The end of a node's logs, quoted in error messages so that a failed start explains itself. */
final class LogTail {

  private static final int SYSTEM_LOG_LINES = 20;
  private static final int STDOUT_LINES = 5;
  private static final int LINE_LENGTH = 400;

  private LogTail() {}

  /**
   * Names the server's main log and quotes the end of it, then a shorter end of each other log: the
   * process output, where the JVM reports fatal errors (bad options, out of memory).
   *
   * @param logs the main log first; for a server without a log of its own, its process output
   */
  static String describe(List<Path> logs) {
    StringBuilder message = new StringBuilder("See ").append(logs.get(0)).append('.');
    for (int i = 0; i < logs.size(); i++) {
      quote(message, logs.get(i), i == 0 ? SYSTEM_LOG_LINES : STDOUT_LINES);
    }
    return message.toString();
  }

  private static void quote(StringBuilder message, Path log, int lines) {
    List<String> tail = lastLines(log, lines);
    if (!tail.isEmpty()) {
      message.append("\nLast lines of ").append(log).append(':');
      tail.forEach(
          line ->
              message
                  .append("\n  ")
                  .append(
                      line.length() <= LINE_LENGTH
                          ? line
                          : line.substring(0, LINE_LENGTH) + "..."));
    }
  }

  static List<String> lastLines(Path file, int count) {
    try {
      List<String> all =
          new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
      return all.subList(Math.max(0, all.size() - count), all.size());
    } catch (IOException e) {
      return List.of();
    }
  }
}
