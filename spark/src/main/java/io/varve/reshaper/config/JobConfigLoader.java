package io.varve.reshaper.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/** Reads and checks a job's YAML file; the checks against the schemas are the planner's. */
public final class JobConfigLoader {

  private static final Set<String> KEYS = Set.of("source", "target", "renames", "drop",
      "constants", "reshape", "savepoints", "rateLimit", "failures", "writer", "compaction",
      "timestamps", "progress", "validation", "spark");
  private static final Set<String> TOLERATED = Set.of("skipTokenRanges", "skipSegments");

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
    List<String> warnings = new ArrayList<>(s.checkKeys(KEYS, TOLERATED));
    ConnectionSettings source = ConnectionSettings.read(s.section("source"), "source", warnings);
    ConnectionSettings target = ConnectionSettings.read(s.section("target"), "target", warnings);

    List<JobConfig.Rename> renames = new ArrayList<>();
    List<Object> renameList = s.list("renames");
    for (int i = 0; i < renameList.size(); i++) {
      YamlSection r = YamlSection.of("renames[" + i + "]", renameList.get(i));
      r.checkKeys(Set.of("from", "to"), Set.of());
      renames.add(new JobConfig.Rename(r.requiredString("from", "a source column name"),
          r.requiredString("to", "a target column name")));
    }
    List<String> drop = s.list("drop").stream().map(String::valueOf).toList();
    Map<String, String> constants = new LinkedHashMap<>();
    s.section("constants").raw().forEach((k, v) -> {
      if (v == null) {
        throw new ConfigException("constants." + k, "null", "a CQL literal");
      }
      constants.put(k, String.valueOf(v));
    });

    YamlSection reshape = s.section("reshape");
    reshape.checkKeys(Set.of("onConflict", "column"), Set.of());
    OnConflict rule = reshape.enumValue("onConflict", OnConflict.class, null);
    String ruleColumn = reshape.string("column", null);
    if (rule != null && rule.needsColumn() && ruleColumn == null) {
      throw new ConfigException("reshape.column", "missing",
          "a target column name, for onConflict: " + rule);
    }
    if (rule != null && !rule.needsColumn() && ruleColumn != null) {
      throw new ConfigException("reshape.column", ruleColumn,
          "no column: onConflict: " + rule + " compares no column");
    }

    YamlSection sp = s.section("savepoints");
    sp.checkKeys(Set.of("path", "intervalSeconds"), Set.of());
    JobConfig.Savepoints savepoints = new JobConfig.Savepoints(
        sp.string("path", "savepoints"), sp.integer("intervalSeconds", 10, 0, 86_400));

    YamlSection rl = s.section("rateLimit");
    rl.checkKeys(Set.of("rowsPerSecond", "megabytesPerSecond"), Set.of());
    JobConfig.RateLimit rateLimit = new JobConfig.RateLimit(
        rl.number("rowsPerSecond", 0, 0, Long.MAX_VALUE), rl.decimal("megabytesPerSecond", 0, 0));

    YamlSection f = s.section("failures");
    f.checkKeys(Set.of("maxBadRows", "badRowsPath", "retries"), Set.of());
    JobConfig.Failures failures = new JobConfig.Failures(
        f.number("maxBadRows", 100, 0, Long.MAX_VALUE), f.string("badRowsPath", null),
        f.integer("retries", 3, 0, 100));

    YamlSection w = s.section("writer");
    w.checkKeys(Set.of("maxInFlight", "batchRows", "batchBytes", "batchPartitions"), Set.of());
    JobConfig.Writer writer = new JobConfig.Writer(w.integer("maxInFlight", 128, 1, 4096),
        w.integer("batchRows", 100, 1, 1000), w.integer("batchBytes", 4096, 1, 1 << 20),
        w.integer("batchPartitions", 10, 1, 100));

    YamlSection c = s.section("compaction");
    c.checkKeys(Set.of("disableDuringLoad", "majorCompactionAfter", "jmxPort", "jmxUsername",
        "jmxPassword"), Set.of());
    JobConfig.Compaction compaction = new JobConfig.Compaction(c.bool("disableDuringLoad", false),
        c.bool("majorCompactionAfter", false), c.integer("jmxPort", 7199, 1, 65535),
        c.string("jmxUsername", null), c.string("jmxPassword", null));

    YamlSection ts = s.section("timestamps");
    ts.checkKeys(Set.of("nonFrozenCollections"), Set.of());
    JobConfig.CollectionTimestamps collections = ts.enumValue("nonFrozenCollections",
        JobConfig.CollectionTimestamps.class, JobConfig.CollectionTimestamps.FAIL);

    YamlSection p = s.section("progress");
    p.checkKeys(Set.of("intervalSeconds"), Set.of());
    int progressInterval = p.integer("intervalSeconds", 5, 0, 3600);

    YamlSection v = s.section("validation");
    warnings.addAll(v.checkKeys(Set.of("failuresToFetch"), Set.of("compareTimestamps",
        "ttlToleranceMillis", "writetimeToleranceMillis", "floatingPointTolerance",
        "timestampMsTolerance")));
    JobConfig.Validation validation =
        new JobConfig.Validation(v.integer("failuresToFetch", 10, 0, 100_000));

    Map<String, String> spark = new LinkedHashMap<>();
    s.section("spark").raw().forEach((k, val) -> {
      if (!k.startsWith("spark.")) {
        throw new ConfigException("spark." + k, val, "a Spark option whose name starts with spark.");
      }
      spark.put(k, String.valueOf(val));
    });
    return new JobConfig(source, target, List.copyOf(renames), drop, Map.copyOf(constants),
        new JobConfig.Reshape(rule, ruleColumn), savepoints, rateLimit, failures, writer,
        compaction, collections, progressInterval, validation, Map.copyOf(spark),
        List.copyOf(warnings));
  }
}
