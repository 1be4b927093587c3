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
   * Names the system log and quotes the end of it and of the process output: the JVM reports
   * fatal errors (bad options, out of memory) only in the latter.
   */
  static String describe(Path systemLog, Path stdoutLog) {
    StringBuilder message = new StringBuilder("See ").append(systemLog).append('.');
    quote(message, systemLog, SYSTEM_LOG_LINES);
    quote(message, stdoutLog, STDOUT_LINES);
    return message.toString();
  }

  /** Names a server's only log, its process output, and quotes the end of it. */
  static String describe(Path log) {
    StringBuilder message = new StringBuilder("See ").append(log).append('.');
    quote(message, log, SYSTEM_LOG_LINES);
    return message.toString();
  }

  private static void quote(StringBuilder message, Path log, int lines) {
    List<String> tail = lastLines(log, lines);
    if (!tail.isEmpty()) {
      message.append("\nLast lines of ").append(log).append(':');
      tail.forEach(line -> message.append("\n  ").append(line.length() <= LINE_LENGTH
          ? line : line.substring(0, LINE_LENGTH) + "..."));
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
