package io.varve.perf.measure;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The process listening on a TCP port of this machine, from {@code /proc} (Linux): so that a
 * benchmark pointed at a Cassandra it did not start ({@code --cassandra 127.0.0.1:9042}) can still
 * measure that Cassandra's CPU time ({@link CpuMeter}). Empty where {@code /proc} is missing or the
 * process's descriptors are not readable (another user's process, without privileges).
 */
public final class Listeners {

  /** {@code st} of a listening socket in {@code /proc/net/tcp}. */
  private static final String LISTEN = "0A";

  private Listeners() {}

  /** The process with a socket listening on {@code port} (any address), if one can be seen. */
  public static OptionalLong pidOf(int port) {
    try {
      OptionalLong inode = OptionalLong.empty();
      for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
        Path path = Path.of(table);
        if (inode.isEmpty() && Files.isReadable(path)) {
          inode = listeningInode(Files.readAllLines(path), port);
        }
      }
      return inode.isPresent() ? owner(inode.getAsLong()) : OptionalLong.empty();
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * The inode of the socket that {@code lines} of a {@code /proc/net/tcp} table (header first) show
   * listening on {@code port}.
   */
  static OptionalLong listeningInode(List<String> lines, int port) {
    String hexPort = String.format(Locale.ROOT, ":%04X", port);
    for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
      String[] fields = line.trim().split("\\s+");
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
      if (fields.length > 9 && fields[1].endsWith(hexPort) && fields[3].equals(LISTEN)) {
        try {
          return OptionalLong.of(Long.parseLong(fields[9]));
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }

  /** The process holding a descriptor of socket {@code inode}. */
  private static OptionalLong owner(long inode) throws IOException {
    String target = "socket:[" + inode + "]";
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path process : processes) {
        if (holds(process.resolve("fd"), target)) {
          return OptionalLong.of(Long.parseLong(process.getFileName().toString()));
        }
      }
    }
    return OptionalLong.empty();
  }

  private static boolean holds(Path descriptors, String target) {
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(descriptors)) {
      for (Path fd : fds) {
        try {
          if (Files.readSymbolicLink(fd).toString().equals(target)) {
            return true;
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    } catch (IOException | SecurityException e) {
      // gone, or not ours to read
    }
    return false;
  }
}
