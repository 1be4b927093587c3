package io.varve.reshaper.badrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The bad-rows file of a job: a CQL script that writes every bad row again. Each run that meets bad
 * rows appends a comment line naming itself, then per row a comment with its error and the
 * statement, ended by {@code ;} at the end of a line:
 *
 * <pre>
 * -- varve migrate ks.a-to-ks.b at 2026-01-01T00:00:00Z: ...
 * -- WriteTimeoutException: Cassandra timeout during write query ...
 * INSERT INTO ks.b (k, v) VALUES (1, 'x');
 * </pre>
 *
 * <p>So the file can be fed to {@code cqlsh -f}, or to {@code varve migrate replay}, which {@link
 * #read reads} it back. A value may span lines (a text with a line break); a statement ends at a
 * {@code ;} that closes a line outside quotes. Not thread-safe.
 */
public final class BadRowsFile {
  private final Path file;
  private final String header;
  private boolean headerWritten;

  /**
   * @param header the comment that opens this run's rows, without {@code --}
   */
  public BadRowsFile(Path file, String header) {
    this.file = file;
    this.header = header;
  }

  /** The file. */
  public Path path() {
    return file;
  }

  /** Appends rows, after this run's header the first time. */
  public void append(List<BadRow> rows) {
    if (rows.isEmpty()) {
      return;
    }
    StringBuilder text = new StringBuilder();
    if (!headerWritten) {
      text.append("-- ").append(header).append('\n');
    }
    rows.forEach(r -> text.append(format(r)));
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(
          file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write bad rows to " + file, e);
    }
    headerWritten = true;
  }

  /**
   * Replaces the file atomically with {@code rows} under this run's header; removes it when there
   * are none.
   */
  public void replaceWith(List<BadRow> rows) {
    try {
      if (rows.isEmpty()) {
        Files.deleteIfExists(file);
        return;
      }
      StringBuilder text = new StringBuilder("-- ").append(header).append('\n');
      rows.forEach(r -> text.append(format(r)));
      Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write bad rows to " + file, e);
    }
  }

  private static String format(BadRow row) {
    return "-- " + row.error() + "\n" + row.statement() + ";\n";
  }

  /**
   * The rows of a bad-rows file (or any script of one statement per row in that form): each
   * statement with the error of the comment line before it, if any.
   */
  public static List<BadRow> read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read bad rows from " + file, e);
    }
    List<BadRow> rows = new ArrayList<>();
    String error = "";
    StringBuilder statement = new StringBuilder();
    Quotes quotes = new Quotes();
    for (String line : lines) {
      if (statement.isEmpty()) {
        if (line.isBlank()) {
          continue;
        }
        if (line.startsWith("--")) {
          error = line.substring(2).trim();
          continue;
        }
      } else {
        statement.append('\n');
      }
      statement.append(line);
      quotes.scan(line);
      if (!quotes.open() && line.stripTrailing().endsWith(";")) {
        String text = statement.toString().stripTrailing();
        rows.add(new BadRow(text.substring(0, text.length() - 1), error));
        statement.setLength(0);
        error = "";
      }
    }
    if (!statement.isEmpty()) {
      throw new IllegalArgumentException(file + ": the last statement does not end with ;");
    }
    return rows;
  }

  /** Whether a CQL text is inside a string literal or a quoted name after the lines seen. */
  private static final class Quotes {
    private boolean single;
    private boolean dbl;

    void scan(String line) {
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (c == '\'' && !dbl) {
          single = !single; // '' inside a literal toggles twice
        } else if (c == '"' && !single) {
          dbl = !dbl;
        }
      }
    }

    boolean open() {
      return single || dbl;
    }
  }
}
