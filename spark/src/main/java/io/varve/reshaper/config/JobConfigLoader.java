package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobOptions.BAD_ROWS_PATH;
import static io.varve.reshaper.config.JobOptions.BATCH_BYTES;
import static io.varve.reshaper.config.JobOptions.BATCH_PARTITIONS;
import static io.varve.reshaper.config.JobOptions.BATCH_ROWS;
import static io.varve.reshaper.config.JobOptions.CONSTANTS;
import static io.varve.reshaper.config.JobOptions.DISABLE_COMPACTION;
import static io.varve.reshaper.config.JobOptions.DROP;
import static io.varve.reshaper.config.JobOptions.FAILURES_TO_FETCH;
import static io.varve.reshaper.config.JobOptions.JMX_PASSWORD;
import static io.varve.reshaper.config.JobOptions.JMX_PORT;
import static io.varve.reshaper.config.JobOptions.JMX_USERNAME;
import static io.varve.reshaper.config.JobOptions.MAJOR_COMPACTION;
import static io.varve.reshaper.config.JobOptions.MAX_BAD_ROWS;
import static io.varve.reshaper.config.JobOptions.MAX_IN_FLIGHT;
import static io.varve.reshaper.config.JobOptions.MEGABYTES_PER_SECOND;
import static io.varve.reshaper.config.JobOptions.NON_FROZEN_COLLECTIONS;
import static io.varve.reshaper.config.JobOptions.ON_CONFLICT;
import static io.varve.reshaper.config.JobOptions.PROGRESS_INTERVAL;
import static io.varve.reshaper.config.JobOptions.RENAMES;
import static io.varve.reshaper.config.JobOptions.RETRIES;
import static io.varve.reshaper.config.JobOptions.ROWS_PER_SECOND;
import static io.varve.reshaper.config.JobOptions.RULE_COLUMN;
import static io.varve.reshaper.config.JobOptions.SAVEPOINTS_INTERVAL;
import static io.varve.reshaper.config.JobOptions.SAVEPOINTS_PATH;
import static io.varve.reshaper.config.JobOptions.SLICE_END;
import static io.varve.reshaper.config.JobOptions.SLICE_EVENT_BUCKETS;
import static io.varve.reshaper.config.JobOptions.SLICE_SECONDS_PER_TIME_BUCKET;
import static io.varve.reshaper.config.JobOptions.SLICE_START;
import static io.varve.reshaper.config.JobOptions.SOURCE;
import static io.varve.reshaper.config.JobOptions.SPARK;
import static io.varve.reshaper.config.JobOptions.TARGET;
import static io.varve.reshaper.config.JobOptions.value;

import io.varve.options.Option;
import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads and checks a job's YAML file: SnakeYAML parses it, the {@code options} module reads the
 * tree through the options of {@link JobOptions} (unknown keys, sections that are not mappings,
 * values of the wrong type or range), and this class adds the checks across keys. Every refusal is
 * a {@link ConfigException} naming the key, the value and what was expected; the checks against the
 * schemas are the planner's.
 */
public final class JobConfigLoader {

  private JobConfigLoader() {}

  /** Reads {@code file}; throws {@link ConfigException} naming the key at fault. */
  public static JobConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException("--config", file, "an existing YAML file");
    } catch (IOException e) {
      throw new ConfigException("--config: " + file + " cannot be read: " + e.getMessage(), e);
    }
    return parse(text);
  }

  /** Parses the text of a job's YAML file. */
  public static JobConfig parse(String yamlText) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yamlText);
    } catch (YAMLException e) {
      throw new ConfigException("the job file is not valid YAML: " + e.getMessage(), e);
    }
    try {
      // an empty timeSlice section is a mistake, not a plain copy: it asks for its keys
      boolean timeSlice = root instanceof Map<?, ?> top && top.containsKey("timeSlice");
      List<String> connector = ConnectorKeys.apply(root, System.getProperties());
      return config(OptionValues.fromTree(JobOptions.FILE, "", root), timeSlice, connector);
    } catch (OptionException e) {
      throw new ConfigException(e.getMessage(), e);
    }
  }

  private static JobConfig config(
      OptionValues s, boolean timeSliceGiven, List<String> connectorWarnings) {
    List<String> warnings = new ArrayList<>(JobOptions.warnings(s, JobOptions.IGNORED_JOB));
    warnings.addAll(connectorWarnings);
    ConnectionSettings source = ConnectionSettings.read(value(s, SOURCE), "source", warnings);
    ConnectionSettings target = ConnectionSettings.read(value(s, TARGET), "target", warnings);

    OnConflict rule = value(s, ON_CONFLICT);
    String ruleColumn = value(s, RULE_COLUMN);
    if (rule != null && rule.needsColumn() && ruleColumn == null) {
      throw new ConfigException(
          s.key(RULE_COLUMN), "missing", "a target column name, for onConflict: " + rule);
    }
    if (rule != null && !rule.needsColumn() && ruleColumn != null) {
      throw new ConfigException(
          s.key(RULE_COLUMN), ruleColumn, "no column: onConflict: " + rule + " compares no column");
    }
    return new JobConfig(
        source,
        target,
        value(s, RENAMES),
        value(s, DROP),
        value(s, CONSTANTS),
        new JobConfig.Reshape(rule, ruleColumn),
        timeSlice(s, timeSliceGiven),
        new JobConfig.Savepoints(value(s, SAVEPOINTS_PATH), value(s, SAVEPOINTS_INTERVAL)),
        new JobConfig.RateLimit(value(s, ROWS_PER_SECOND), value(s, MEGABYTES_PER_SECOND)),
        new JobConfig.Failures(value(s, MAX_BAD_ROWS), value(s, BAD_ROWS_PATH), value(s, RETRIES)),
        new JobConfig.Writer(
            value(s, MAX_IN_FLIGHT),
            value(s, BATCH_ROWS),
            value(s, BATCH_BYTES),
            value(s, BATCH_PARTITIONS)),
        new JobConfig.Compaction(
            value(s, DISABLE_COMPACTION),
            value(s, MAJOR_COMPACTION),
            value(s, JMX_PORT),
            value(s, JMX_USERNAME),
            value(s, JMX_PASSWORD)),
        value(s, NON_FROZEN_COLLECTIONS),
        value(s, PROGRESS_INTERVAL),
        new JobConfig.Validation(
            value(s, FAILURES_TO_FETCH),
            value(s, JobOptions.COMPARE_TIMESTAMPS),
            value(s, JobOptions.WRITETIME_TOLERANCE),
            value(s, JobOptions.TTL_TOLERANCE),
            value(s, JobOptions.FLOAT_TOLERANCE),
            value(s, JobOptions.TIMESTAMP_TOLERANCE),
            value(s, JobOptions.TARGET_ONLY_ROWS),
            value(s, JobOptions.COPY_MISSING_ROWS)),
        value(s, SPARK),
        List.copyOf(warnings));
  }

  /**
   * The {@code timeSlice} section, or null when the file has none: all four keys, a slice the
   * bucket width divides.
   */
  private static JobConfig.TimeSlice timeSlice(OptionValues s, boolean given) {
    List<Option<?>> keys =
        List.of(SLICE_START, SLICE_END, SLICE_SECONDS_PER_TIME_BUCKET, SLICE_EVENT_BUCKETS);
    if (!given && keys.stream().noneMatch(s::isSet)) {
      return null;
    }
    for (Option<?> key : keys) {
      if (!s.isSet(key)) {
        throw new ConfigException(
            s.key(key), "missing", key.typeDoc() + ", in a timeSlice section");
      }
    }
    Instant start = value(s, SLICE_START);
    Instant end = value(s, SLICE_END);
    long seconds = value(s, SLICE_SECONDS_PER_TIME_BUCKET);
    if (!start.isBefore(end)) {
      throw new ConfigException(
          s.key(SLICE_END), end, "an instant after " + s.key(SLICE_START) + " (" + start + ")");
    }
    long widthMillis = end.toEpochMilli() - start.toEpochMilli();
    if (widthMillis % (seconds * 1000) != 0) {
      throw new ConfigException(
          s.key(SLICE_SECONDS_PER_TIME_BUCKET),
          seconds,
          "a divisor of the slice's width, "
              + (widthMillis % 1000 == 0 ? widthMillis / 1000 + " seconds" : widthMillis + " ms")
              + " from "
              + start
              + " to "
              + end);
    }
    return new JobConfig.TimeSlice(start, end, seconds, value(s, SLICE_EVENT_BUCKETS));
  }
}
