package io.varve.reshaper.transfer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.reshaper.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an export or an import has finished, in a JSON file replaced atomically after each unit (a
 * slice exported, a directory imported): the run it belongs to ({@code namespace}, the interval,
 * the format) and each finished unit with its row count. A rerun after a crash or a kill skips the
 * finished units; a unit under way when the run died is done again from its start, which leaves no
 * duplicate (an export's unit directory is replaced; an import writes the same cells again). The
 * file's name starts with an underscore, so readers of the Parquet files (Spark, pyarrow, DuckDB)
 * pass it by.
 */
final class TransferState {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Map<String, String> run;
  private final Map<String, Long> done = new TreeMap<>();

  private TransferState(Path file, Map<String, String> run) {
    this.file = file;
    this.run = run;
  }

  /**
   * The state of this run at {@code file}: empty when there is none, the finished units when a run
   * with the same {@code run} values left it.
   *
   * @throws ConfigException naming {@code key} when the file belongs to another run
   */
  static TransferState open(Path file, Map<String, String> run, String key) {
    TransferState state = new TransferState(file, new TreeMap<>(run));
    Path parent = file.toAbsolutePath().getParent();
    try {
      Files.createDirectories(parent);
    } catch (IOException e) {
      // refused below, naming the option
    }
    if (!Files.isDirectory(parent) || !Files.isWritable(parent)) {
      throw new ConfigException(
          key,
          parent + (Files.isDirectory(parent) ? " (not writable)" : " (cannot be created)"),
          "a directory this user may write: the command records its progress there, in "
              + file.getFileName());
    }
    if (!Files.exists(file)) {
      return state;
    }
    try {
      ObjectNode stored = (ObjectNode) JSON.readTree(file.toFile());
      Map<String, String> storedRun = new TreeMap<>();
      stored
          .path("run")
          .fields()
          .forEachRemaining(e -> storedRun.put(e.getKey(), e.getValue().asText()));
      if (!storedRun.equals(state.run)) {
        throw new ConfigException(
            key,
            file.getParent() + " (it holds the state of another run: " + storedRun + ")",
            "a directory of this run " + state.run + ", or an empty one");
      }
      stored
          .path("done")
          .fields()
          .forEachRemaining(e -> state.done.put(e.getKey(), e.getValue().asLong()));
      return state;
    } catch (IOException | ClassCastException e) {
      throw new ConfigException(
          key, file + " (unreadable: " + e.getMessage() + ")", "a state file this command wrote");
    }
  }

  boolean isDone(String unit) {
    return done.containsKey(unit);
  }

  long rows(String unit) {
    return done.getOrDefault(unit, 0L);
  }

  int doneCount() {
    return done.size();
  }

  /** Records a finished unit and replaces the file. */
  void markDone(String unit, long rows) {
    done.put(unit, rows);
    ObjectNode root = JSON.createObjectNode();
    ObjectNode r = root.putObject("run");
    run.forEach(r::put);
    ObjectNode d = root.putObject("done");
    done.forEach(d::put);
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), root);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
