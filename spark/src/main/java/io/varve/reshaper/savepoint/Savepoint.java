package io.varve.reshaper.savepoint;

import io.varve.reshaper.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;

/**
 * The token ranges of one job that are finished, kept in a small properties file {@code
 * <savepoints.path>/<job name>.savepoint}. The file is replaced atomically (written beside, then
 * renamed), so a crash at any moment leaves either the old or the new content. A range is recorded
 * only after all its writes were acknowledged; a range that was running when the job died is done
 * again on the next run, which is harmless because every write is an idempotent upsert.
 * Thread-safe.
 */
public final class Savepoint {
  private final Path file;
  private final String fingerprint;
  private final int rangeCount;
  private final BitSet done;
  private boolean dirty;

  private Savepoint(Path file, String fingerprint, int rangeCount, BitSet done) {
    this.file = file;
    this.fingerprint = fingerprint;
    this.rangeCount = rangeCount;
    this.done = done;
  }

  /**
   * Opens the savepoint of a job, or an empty one. Refuses a file that belongs to another job
   * (another plan or split count), since its ranges would mean something else.
   */
  public static Savepoint open(Path directory, String jobName, String fingerprint, int rangeCount) {
    Path file = directory.resolve(jobName + ".savepoint");
    BitSet done = new BitSet(rangeCount);
    if (Files.exists(file)) {
      Properties p = new Properties();
      try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read savepoint " + file, e);
      }
      String expected = fingerprint + "/" + rangeCount;
      String found = p.getProperty("job") + "/" + p.getProperty("ranges");
      if (!expected.equals(found)) {
        throw new ConfigException(
            "savepoints.path",
            file,
            "the savepoint of this job (plan "
                + expected
                + "), but it records plan "
                + found
                + ": the tables, columns, where,"
                + " reshape or splitCount changed. Delete the file to start over");
      }
      String list = p.getProperty("done", "").trim();
      if (!list.isEmpty()) {
        for (String index : list.split(",")) {
          done.set(Integer.parseInt(index.trim()));
        }
      }
    }
    return new Savepoint(file, fingerprint, rangeCount, done);
  }

  /**
   * The range count the savepoint of a job records, if it has one: a rerun cuts the ring as the run
   * that wrote it did, whatever a size estimate says today.
   */
  public static java.util.OptionalInt recordedRanges(Path directory, String jobName) {
    Path file = directory.resolve(jobName + ".savepoint");
    if (!Files.exists(file)) {
      return java.util.OptionalInt.empty();
    }
    Properties p = new Properties();
    try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
      return java.util.OptionalInt.of(Integer.parseInt(p.getProperty("ranges", "").trim()));
    } catch (IOException | NumberFormatException e) {
      return java.util.OptionalInt.empty(); // open() then says what is wrong with it
    }
  }

  /** The savepoint file. */
  public Path file() {
    return file;
  }

  /** True if the range was finished by this or an earlier run. */
  public synchronized boolean isDone(int range) {
    return done.get(range);
  }

  /** How many ranges are finished. */
  public synchronized int doneCount() {
    return done.cardinality();
  }

  /** The finished ranges, ascending. */
  public synchronized List<Integer> doneRanges() {
    List<Integer> out = new ArrayList<>();
    done.stream().forEach(out::add);
    return out;
  }

  /** Records a finished range in memory; {@link #flush} writes it. */
  public synchronized void markDone(int range) {
    if (!done.get(range)) {
      done.set(range);
      dirty = true;
    }
  }

  /** Writes the file if anything changed since the last flush. */
  public synchronized void flush() {
    if (!dirty) {
      return;
    }
    StringBuilder list = new StringBuilder();
    done.stream().forEach(i -> list.append(list.isEmpty() ? "" : ",").append(i));
    String text =
        "# Varve reshaper savepoint: token ranges finished by this job.\n"
            + "job="
            + fingerprint
            + "\nranges="
            + rangeCount
            + "\ndone="
            + list
            + "\n";
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write savepoint " + file, e);
    }
    dirty = false;
  }
}
