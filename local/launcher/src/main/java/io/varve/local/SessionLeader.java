package io.varve.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs a command in a new session with {@code setsid}, so that a Ctrl-C or a hang-up in the
 * terminal that started it does not reach it. Where {@code setsid} is missing (macOS), the command
 * runs as is and shares the caller's session.
 */
final class SessionLeader {

  private static final Optional<Path> SETSID =
      Stream.of("/usr/bin/setsid", "/bin/setsid")
          .map(Path::of)
          .filter(Files::isExecutable)
          .findFirst();

  private SessionLeader() {}

  /**
   * The command behind {@code setsid}. A child of a JVM is never a process-group leader, so {@code
   * setsid} execs in place rather than forking: the pid of the started process is the pid of the
   * command itself.
   */
  static List<String> prefix(List<String> command) {
    if (SETSID.isEmpty()) {
      return command;
    }
    List<String> prefixed = new ArrayList<>(command.size() + 1);
    prefixed.add(SETSID.get().toString());
    prefixed.addAll(command);
    return prefixed;
  }
}
