package io.varve.reshaper.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
import static io.varve.reshaper.config.JobOptions.SPARK;

import io.varve.reshaper.config.JobOption.Scope;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads and checks a job's YAML file through the options of {@link JobOptions}; the checks
 * against the schemas are the planner's.
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
    YamlSection s = YamlSection.of("", root);
    List<String> warnings = new ArrayList<>(checkSections(s));
    ConnectionSettings source = ConnectionSettings.read(s.section("source"), "source", warnings);
    ConnectionSettings target = ConnectionSettings.read(s.section("target"), "target", warnings);

    OnConflict rule = ON_CONFLICT.read(s);
    String ruleColumn = RULE_COLUMN.read(s);
    if (rule != null && rule.needsColumn() && ruleColumn == null) {
      throw new ConfigException(RULE_COLUMN.key(), "missing",
          "a target column name, for onConflict: " + rule);
    }
    if (rule != null && !rule.needsColumn() && ruleColumn != null) {
      throw new ConfigException(RULE_COLUMN.key(), ruleColumn,
          "no column: onConflict: " + rule + " compares no column");
    }
    return new JobConfig(source, target, RENAMES.read(s), DROP.read(s), CONSTANTS.read(s),
        new JobConfig.Reshape(rule, ruleColumn),
        new JobConfig.Savepoints(SAVEPOINTS_PATH.read(s), SAVEPOINTS_INTERVAL.read(s)),
        new JobConfig.RateLimit(ROWS_PER_SECOND.read(s), MEGABYTES_PER_SECOND.read(s)),
        new JobConfig.Failures(MAX_BAD_ROWS.read(s), BAD_ROWS_PATH.read(s), RETRIES.read(s)),
        new JobConfig.Writer(MAX_IN_FLIGHT.read(s), BATCH_ROWS.read(s), BATCH_BYTES.read(s),
            BATCH_PARTITIONS.read(s)),
        new JobConfig.Compaction(DISABLE_COMPACTION.read(s), MAJOR_COMPACTION.read(s),
            JMX_PORT.read(s), JMX_USERNAME.read(s), JMX_PASSWORD.read(s)),
        NON_FROZEN_COLLECTIONS.read(s), PROGRESS_INTERVAL.read(s),
        new JobConfig.Validation(FAILURES_TO_FETCH.read(s)), SPARK.read(s),
        List.copyOf(warnings));
  }

  /** Refuses unknown keys in the job's own sections; warns of ignored ones. */
  private static List<String> checkSections(YamlSection root) {
    Set<Scope> job = Set.of(Scope.JOB);
    Set<String> known = new LinkedHashSet<>(JobOptions.names(job, "", false));
    known.addAll(List.of("source", "target"));
    List<String> warnings = new ArrayList<>(root.checkKeys(known,
        JobOptions.names(job, "", true)));
    for (String section : known) {
      Object value = root.raw().get(section);
      if (value instanceof Map<?, ?> && !JobOptions.names(job, section, false).isEmpty()) {
        warnings.addAll(root.section(section).checkKeys(job, section));
      }
    }
    return warnings;
  }
}
