package io.varve.bench.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and writes result files (JSON). */
public final class ResultFiles {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private ResultFiles() {}

  /** Writes a result, creating parent directories; replaces the file atomically. */
  public static void write(Path file, RunResult result) throws IOException {
    writeJson(file, result);
  }

  /** Writes a capacity search's summary, as {@link #write}. */
  public static void write(Path file, CapacitySummary summary) throws IOException {
    writeJson(file, summary);
  }

  /**
   * Reads a capacity summary: {@code path} is the file or the search's result directory holding
   * {@value CapacitySummary#FILE_NAME}; a file that is not one gets an error naming it.
   */
  public static CapacitySummary readCapacity(Path path) {
    Path file = Files.isDirectory(path) ? path.resolve(CapacitySummary.FILE_NAME) : path;
    try {
      CapacitySummary summary = JSON.readValue(file.toFile(), CapacitySummary.class);
      if (summary.format() != CapacitySummary.FORMAT
          || summary.binding() == null
          || summary.steps() == null
          || summary.operations() == null) {
        throw new ResultFileException(
            file
                + " is not a capacity summary of format "
                + CapacitySummary.FORMAT
                + " (bench capacity writes one as "
                + CapacitySummary.FILE_NAME
                + " in its result directory)");
      }
      return summary;
    } catch (JsonProcessingException e) {
      throw new ResultFileException(
          file + " is not a valid capacity summary: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ResultFileException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static void writeJson(Path file, Object result) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path tmp = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
    JSON.writeValue(tmp.toFile(), result);
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Reads a result file; a file that is not one gets an error naming it. */
  public static RunResult read(Path file) {
    try {
      RunResult result = JSON.readValue(file.toFile(), RunResult.class);
      if (result.format() != RunResult.FORMAT
          || result.operations() == null
          || result.timeline() == null) {
        throw new ResultFileException(file + " is not a result file of format " + RunResult.FORMAT);
      }
      return result;
    } catch (JsonProcessingException e) {
      throw new ResultFileException(
          file + " is not a valid result file: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ResultFileException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** The JSON text of a result (for embedding in a report). */
  public static String toJson(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
