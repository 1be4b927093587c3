package io.varve.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/** The file naming the process of a local server, like {@code <home>/cassandra.pid}. */
record PidFile(Path path) {

  /** The recorded pid; empty if there is no file or it holds no number. */
  OptionalLong read() {
    try {
      return OptionalLong.of(Long.parseLong(Files.readString(path).trim()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  void write(long pid) throws IOException {
    Files.writeString(path, pid + "\n");
  }
}
