package io.varve.reshaper.config;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A whole reshaper job, as read from its YAML file by {@link JobConfigLoader}. Every key, its type,
 * range, default and documentation is an option of {@link JobOptions}. Immutable.
 *
 * @param source where rows are read
 * @param target where rows are written
 * @param renames {@code renames}: source column to target column
 * @param drop {@code drop}: source columns that are not copied
 * @param constants {@code constants}: target columns filled with a CQL literal
 * @param reshape {@code reshape}: the rule for rows that land on one target key
 * @param timeSlice {@code timeSlice}: the settings a slice table is re-partitioned to, or null
 * @param savepoints {@code savepoints}: where finished token ranges are recorded
 * @param rateLimit {@code rateLimit}: a cap on the whole job's write rate
 * @param failures {@code failures}: bad rows, their file and the threshold
 * @param writer {@code writer}: in-flight writes and batching per Spark task
 * @param compaction {@code compaction}: target compaction during and after the load
 * @param nonFrozenCollections {@code timestamps.nonFrozenCollections}: what preserving timestamps
 *     does with non-frozen collections
 * @param progressIntervalSeconds {@code progress.intervalSeconds}: seconds between progress lines,
 *     0 = none
 * @param validation {@code validation}: how {@code migrate validate} reports
 * @param spark {@code spark}: Spark options (any {@code spark.*} key) for the embedded mode and the
 *     {@code spark.cassandra.*} options of both sides
 * @param warnings keys that were accepted but have no effect
 */
public record JobConfig(
    ConnectionSettings source,
    ConnectionSettings target,
    List<Rename> renames,
    List<String> drop,
    Map<String, String> constants,
    Reshape reshape,
    TimeSlice timeSlice,
    Savepoints savepoints,
    RateLimit rateLimit,
    Failures failures,
    Writer writer,
    Compaction compaction,
    CollectionTimestamps nonFrozenCollections,
    int progressIntervalSeconds,
    Validation validation,
    Map<String, String> spark,
    List<String> warnings)
    implements Serializable {

  /** One {@code renames} entry. */
  public record Rename(String from, String to) implements Serializable {}

  /** The {@code reshape} section; {@code onConflict} is null when none is given. */
  public record Reshape(OnConflict onConflict, String column) implements Serializable {}

  /**
   * The {@code timeSlice} section: the slice {@code [start, end)} whose table is copied, and the
   * target's time buckets ({@code secondsPerTimeBucket}, dividing the slice's width) and event
   * buckets. Checked across its keys by {@link JobConfigLoader}.
   */
  public record TimeSlice(Instant start, Instant end, long secondsPerTimeBucket, int eventBuckets)
      implements Serializable {}

  /** The {@code savepoints} section: {@code path} (a directory), {@code intervalSeconds}. */
  public record Savepoints(String path, int intervalSeconds) implements Serializable {}

  /** The {@code rateLimit} section; 0 = no limit. */
  public record RateLimit(long rowsPerSecond, double megabytesPerSecond) implements Serializable {}

  /** The {@code failures} section. */
  public record Failures(long maxBadRows, String badRowsPath, int retries)
      implements Serializable {}

  /**
   * The {@code writer} section, per Spark task: requests in flight, and the bounds of one unlogged
   * batch (rows, value bytes, partitions sharing their replicas).
   */
  public record Writer(int maxInFlight, int batchRows, int batchBytes, int batchPartitions)
      implements Serializable {}

  /** The {@code compaction} section. */
  public record Compaction(
      boolean disableDuringLoad,
      boolean majorCompactionAfter,
      int jmxPort,
      String jmxUsername,
      String jmxPassword)
      implements Serializable {}

  /**
   * The {@code validation} section: how many differences are printed, what is compared and within
   * which tolerances (milliseconds; {@code floatingPointTolerance} absolute), whether the target is
   * scanned for rows of its own, whether missing rows are copied.
   */
  public record Validation(
      int failuresToFetch,
      boolean compareTimestamps,
      long writetimeToleranceMillis,
      long ttlToleranceMillis,
      double floatingPointTolerance,
      long timestampMsTolerance,
      boolean targetOnlyRows,
      boolean copyMissingRows)
      implements Serializable {}

  /** What {@code preserveTimestamps} does with a non-frozen collection column. */
  public enum CollectionTimestamps {
    /** Refuse the job, naming the column. */
    FAIL("fail"),
    /** Copy the collection written at the job's time, without its TTL. */
    CURRENT_TIME("currentTime");

    private final String yamlName;

    CollectionTimestamps(String yamlName) {
      this.yamlName = yamlName;
    }

    @Override
    public String toString() {
      return yamlName;
    }
  }

  /**
   * The bad-rows file: {@code failures.badRowsPath}, by default {@code <savepoints.path>/<job
   * name>.bad-rows}.
   */
  public Path badRowsPath() {
    return failures.badRowsPath() != null
        ? Path.of(failures.badRowsPath())
        : Path.of(savepoints.path()).resolve(jobName() + ".bad-rows");
  }

  /** The {@code renames}: each source column and the target column it fills. */
  public Map<CqlIdentifier, CqlIdentifier> renamed() {
    Map<CqlIdentifier, CqlIdentifier> renamed = new HashMap<>();
    renames.forEach(
        r -> renamed.put(CqlIdentifier.fromCql(r.from()), CqlIdentifier.fromCql(r.to())));
    return renamed;
  }

  /** The {@code drop} columns. */
  public Set<CqlIdentifier> dropped() {
    Set<CqlIdentifier> dropped = new HashSet<>();
    drop.forEach(d -> dropped.add(CqlIdentifier.fromCql(d)));
    return dropped;
  }

  /**
   * A name for this job's files: {@code <source ks.table>-to-<target ks.table>}, a Parquet side
   * written {@code parquet.<last name of its path>}.
   */
  public String jobName() {
    return source.fileName() + "-to-" + target.fileName();
  }
}
