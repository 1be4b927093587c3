package io.varve.reshaper.transfer;

import io.varve.command.ExitStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.reshaper.cluster.UnreachableClusterException;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.NamespaceSourceOptions;
import io.varve.reshaper.datasource.BadRowsException;
import io.varve.reshaper.datasource.NamespaceAccess;
import io.varve.reshaper.datasource.StoredNamespace;
import io.varve.reshaper.job.SparkSupport;
import io.varve.reshaper.plan.TokenRange;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * {@code varve export} and {@code varve import}: a TimeSeries namespace's events, or a KeyValue
 * namespace's items, to and from Parquet files, through the {@code varve-timeseries} or {@code
 * varve-kv} data source, one unit at a time with a {@link TransferState} so that a rerun resumes.
 *
 * <ul>
 *   <li>An export writes each slice of the interval to {@code <out>/slices/<slice table>/} (Spark's
 *       Parquet files: the data source's five columns, {@code event_time} as a millisecond
 *       timestamp), replacing what a killed run left there, and records it in {@code
 *       <out>/_varve_export.json}. A KeyValue namespace's items go to {@code <out>/items/} as one
 *       unit (the data source's four columns, {@code generation_time} in microseconds): a rerun
 *       after a kill exports them again.
 *   <li>An import writes each directory under {@code <in>} that holds Parquet files, in name order,
 *       and records it in {@code <in>/_varve_import.<namespace>.json}.
 * </ul>
 *
 * Exit statuses are those of the table of every command: 2 for a refused option or input (nothing
 * written), 3 when the namespace refused more rows than {@code maxBadRows}, 4 when the cluster
 * failed.
 */
public final class NamespaceTransfer {

  private final PrintStream out;
  private final PrintStream err;

  public NamespaceTransfer(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** What one step of an export writes: a slice of a TimeSeries namespace, or the items. */
  private record Unit(String name, String shown, Map<String, String> options) {}

  /**
   * Exports the namespace to {@code dir}: a TimeSeries namespace's events of the options' interval,
   * or a KeyValue namespace's items.
   */
  public ExitStatus export(Map<String, String> options, Path dir) {
    return guarded(
        "export",
        () -> {
          NamespaceAccess access = NamespaceAccess.open(options, null);
          boolean kv = access.namespace().service().equals(StoredNamespace.KEY_VALUE);
          List<Unit> units = kv ? shares(access, options) : slices(access, options);
          Map<String, String> run = new LinkedHashMap<>();
          run.put("kind", "export");
          run.put("namespace", access.namespace().name());
          run.put("service", access.namespace().service());
          run.put("from", access.from().map(Instant::toString).orElse(""));
          run.put("to", access.to().map(Instant::toString).orElse(""));
          run.put("tokenRange", access.shareShown());
          run.put("format", "parquet");
          TransferState state = TransferState.open(dir.resolve("_varve_export.json"), run, "--out");
          SparkSession spark = session(kv);
          out.printf(
              "export: namespace %s, %d %s (%d already exported) to %s%n",
              access.namespace().name(),
              units.size(),
              kv ? "shares of the items" : "slices",
              units.stream().filter(u -> state.isDone(u.name())).count(),
              dir);
          long total = 0;
          long started = System.nanoTime();
          for (Unit unit : units) {
            if (state.isDone(unit.name())) {
              total += state.rows(unit.name());
              continue;
            }
            long t0 = System.nanoTime();
            Path target = dir.resolve(unit.name());
            // the read's token ranges merged into one partition per task slot: as many files
            spark
                .read()
                .format(access.namespace().format())
                .options(unit.options())
                .load()
                .coalesce(spark.sparkContext().defaultParallelism())
                .write()
                .mode(SaveMode.Overwrite)
                .parquet(target.toString());
            long rows = spark.read().parquet(target.toString()).count();
            state.markDone(unit.name(), rows);
            total += rows;
            out.printf(
                "export: %s: %d %s in %.1f s%n",
                unit.shown(), rows, kv ? "items" : "event items", seconds(t0));
          }
          out.printf(
              "export: done: %d %s of %d %s in %.1f s; %s%n",
              total,
              kv ? "items" : "event items",
              units.size(),
              kv ? "shares" : "slices",
              seconds(started),
              dir);
          return ExitStatus.OK;
        });
  }

  /** The directory of a KeyValue namespace's items in an export. */
  static final String ITEMS = "items";

  /** The shares of the ring a KeyValue export is cut into: its units, each resumed whole. */
  static final int SHARES = 16;

  /**
   * The units of a KeyValue export: the ring (or the {@code tokenRange} given) cut into {@value
   * #SHARES} shares, each read with its {@code tokenRange} into {@code items/<nn>/}.
   */
  private static List<Unit> shares(NamespaceAccess access, Map<String, String> options) {
    List<Unit> units = new ArrayList<>();
    NamespaceSourceOptions.TokenSpan span = access.tokenRange();
    for (TokenRange share : TokenRange.split(span.start(), span.end(), SHARES)) {
      Map<String, String> shareOptions = new LinkedHashMap<>(options);
      shareOptions.keySet().removeIf(k -> k.equalsIgnoreCase("tokenRange"));
      shareOptions.put("tokenRange", share.start() + "," + share.end());
      String name = String.format(java.util.Locale.ROOT, "%s/%02d", ITEMS, share.index());
      units.add(
          new Unit(
              name,
              "items, share "
                  + (share.index() + 1)
                  + " of "
                  + SHARES
                  + " (tokens ("
                  + share.start()
                  + ", "
                  + share.end()
                  + "])",
              shareOptions));
    }
    return units;
  }

  /** The units of a TimeSeries export: each ACTIVE slice of the interval. */
  private static List<Unit> slices(NamespaceAccess access, Map<String, String> options) {
    long from = access.from().map(Instant::toEpochMilli).orElse(Long.MIN_VALUE);
    long to = access.to().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
    List<Unit> units = new ArrayList<>();
    for (TimeSlice slice : access.namespace().timeSlices()) {
      if (slice.status() != io.varve.core.partitioning.SliceStatus.ACTIVE
          || !slice.overlaps(from, to)) {
        continue;
      }
      Map<String, String> sliceOptions = new LinkedHashMap<>(options);
      sliceOptions.put(
          "from", Instant.ofEpochMilli(Math.max(from, slice.start().toEpochMilli())).toString());
      sliceOptions.put(
          "to", Instant.ofEpochMilli(Math.min(to, slice.end().toEpochMilli())).toString());
      units.add(
          new Unit(
              "slices/" + slice.table(),
              "slice " + slice.table() + " [" + slice.start() + ", " + slice.end() + ")",
              sliceOptions));
    }
    return units;
  }

  /** Imports the Parquet files under {@code dir} into the options' namespace. */
  public ExitStatus importFrom(Map<String, String> options, Path dir) {
    return guarded(
        "import",
        () -> {
          if (!Files.isDirectory(dir)) {
            throw new ConfigException("--in", dir, "a directory of Parquet files");
          }
          List<Path> units = units(dir);
          if (units.isEmpty()) {
            throw new ConfigException("--in", dir, "a directory holding .parquet files");
          }
          NamespaceAccess access = NamespaceAccess.open(options, null);
          Map<String, String> run = new LinkedHashMap<>();
          run.put("kind", "import");
          run.put("namespace", access.namespace().name());
          run.put("format", "parquet");
          TransferState state =
              TransferState.open(
                  dir.resolve("_varve_import." + access.namespace().name() + ".json"), run, "--in");
          SparkSession spark = session(false);
          out.printf(
              "import: %d directories of %s (%d already imported) into namespace %s%n",
              units.size(), dir, state.doneCount(), access.namespace().name());
          long total = 0;
          long started = System.nanoTime();
          for (Path unit : units) {
            String relative = dir.relativize(unit).toString();
            String name = relative.isEmpty() ? "." : relative;
            if (state.isDone(name)) {
              total += state.rows(name);
              continue;
            }
            long t0 = System.nanoTime();
            Dataset<Row> rows = spark.read().parquet(unit.toString());
            long count = rows.count();
            rows.write()
                .format(access.namespace().format())
                .mode(SaveMode.Append)
                .options(options)
                .save();
            state.markDone(name, count);
            total += count;
            out.printf("import: %s: %d items in %.1f s%n", unit, count, seconds(t0));
          }
          out.printf("import: done: %d items in %.1f s%n", total, seconds(started));
          return ExitStatus.OK;
        });
  }

  /** The directories under {@code dir} that directly hold Parquet files, in name order. */
  static List<Path> units(Path dir) {
    List<Path> units = new ArrayList<>();
    try (Stream<Path> all = Files.walk(dir)) {
      all.filter(Files::isDirectory)
          .filter(
              d ->
                  !d.getFileName().toString().startsWith("_")
                      && !d.getFileName().toString().startsWith("."))
          .sorted()
          .forEach(
              d -> {
                try (Stream<Path> files = Files.list(d)) {
                  if (files.anyMatch(f -> f.getFileName().toString().endsWith(".parquet"))) {
                    units.add(d);
                  }
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return units;
  }

  /**
   * The Spark session, its Parquet timestamps set for what is exported: event times are whole
   * milliseconds, stored as such in the type readers expect; the generation times of items are
   * microseconds, the write timestamps an import gives back.
   */
  private static SparkSession session(boolean kv) {
    SparkSession spark = SparkSupport.session(Map.of());
    spark
        .conf()
        .set("spark.sql.parquet.outputTimestampType", kv ? "TIMESTAMP_MICROS" : "TIMESTAMP_MILLIS");
    return spark;
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  private interface Step {
    ExitStatus run();
  }

  /** Runs a step and turns what stopped it into its exit status and a line on stderr. */
  private ExitStatus guarded(String verb, Step step) {
    try {
      return step.run();
    } catch (ConfigException e) {
      err.println(verb + ": error: " + e.getMessage());
      err.println(verb + ": nothing was written");
      return ExitStatus.INVALID_INPUT;
    } catch (Exception e) { // Spark's AnalysisException is checked, and thrown undeclared
      if (e instanceof org.apache.spark.sql.AnalysisException) {
        err.println(verb + ": error: " + e.getMessage());
        err.println(verb + ": nothing was written");
        return ExitStatus.INVALID_INPUT;
      }
      if (BadRowsException.in(e)) {
        err.println(verb + ": error: " + rootMessage(e));
        err.println(verb + ": rerun after fixing the input: finished units are skipped");
        return ExitStatus.ABORTED_TOO_MANY_ERRORS;
      }
      ConfigException config = find(e, ConfigException.class);
      if (config != null) {
        err.println(verb + ": error: " + config.getMessage());
        err.println(verb + ": nothing was written");
        return ExitStatus.INVALID_INPUT;
      }
      err.println(
          verb
              + ": error: "
              + (e instanceof UnreachableClusterException ? e.getMessage() : rootMessage(e)));
      err.println(verb + ": rerun to resume: finished units are skipped");
      return ExitStatus.ABORTED_FATAL_ERROR;
    }
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && !(t instanceof BadRowsException)) {
      t = t.getCause();
    }
    return t.getMessage();
  }
}
