package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.varve.options.Option;
import io.varve.options.OptionValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The parser reads every key of the registry, through the key's own type and range. */
class JobOptionsTest {
  private static final List<String> DYNAMODB_TARGET_KEYS =
      List.of("writeThroughput", "throughputWritePercent", "createTable", "billingMode");

  @Test
  void every_option_is_read_by_the_parser_and_refuses_a_bad_value_naming_its_key_and_range() {
    List<Option<?>> options = JobOptions.documented();
    assertThat(options).hasSizeGreaterThan(50);
    for (Option<?> option : options) {
      String typed =
          JobOptions.PARQUET_ONLY.contains(option)
              ? "parquet"
              : JobOptions.DYNAMODB_ONLY.contains(option) ? "dynamodb" : null;
      String side =
          DYNAMODB_TARGET_KEYS.contains(option.key()) && typed != null
              ? "target"
              : JobOptions.SOURCE_ONLY.contains(option) || typed != null
                  ? "source"
                  : JobOptions.SIDE.contains(option) ? "target" : "";
      String fullKey = side.isEmpty() ? option.key() : side + "." + option.key();
      ConfigException refused = null;
      Object bad = null;
      // a scalar that is no number, boolean or choice; then a mapping, which no text accepts
      for (Object candidate : List.of("nope", Map.of("a", 1))) {
        bad = candidate;
        refused =
            catchThrowableOfType(
                ConfigException.class,
                () ->
                    JobConfigLoader.parse(
                        typed != null
                            ? typedJobWith(typed, option.key(), candidate)
                            : jobWith(side, option.key(), candidate)));
        if (refused != null && refused.getMessage().startsWith(fullKey + ": " + candidate)) {
          break;
        }
      }
      assertThat(refused).as(option + " refuses a bad value").isNotNull();
      assertThat(refused.getMessage())
          .as(option.toString())
          .isEqualTo(fullKey + ": " + bad + " (expected: " + option.typeDoc() + ")");
    }
  }

  @Test
  void keys_of_one_side_are_refused_in_the_other() {
    assertThat(
            catchThrowableOfType(
                ConfigException.class,
                () -> JobConfigLoader.parse(jobWith("target", "splitCount", 8))))
        .hasMessage(
            "target.splitCount: 8 (expected: no"
                + " value: this key belongs to the source section)");
    assertThat(
            catchThrowableOfType(
                ConfigException.class,
                () -> JobConfigLoader.parse(jobWith("source", "writeTTLInS", 60))))
        .hasMessage(
            "source.writeTTLInS: 60 (expected:"
                + " no value: this key belongs to the target section)");
  }

  @Test
  void the_migrators_keys_without_effect_are_accepted_with_a_warning() {
    assertThat(JobConfigLoader.parse(jobWith("target", "dropNullPrimaryKeys", true)).warnings())
        .containsExactly(
            "target.dropNullPrimaryKeys is accepted for compatibility with the ScyllaDB"
                + " migrator but has no effect");
    assertThat(
            JobConfigLoader.parse(jobWith("", "validation.hashColumns", List.of("a"))).warnings())
        .containsExactly(
            "validation.hashColumns is accepted for compatibility with the ScyllaDB"
                + " migrator but has no effect");
  }

  @Test
  void absent_keys_take_their_documented_defaults() {
    JobConfig c = JobConfigLoader.parse(jobWith("", "drop", List.of()));
    OptionValues sides = OptionValues.defaults(JobOptions.SIDE);
    OptionValues job = OptionValues.defaults(JobOptions.FILE);
    assertThat(c.source().port()).isEqualTo(sides.get(JobOptions.PORT));
    assertThat(c.source().fetchSize()).isEqualTo(sides.get(JobOptions.FETCH_SIZE));
    assertThat(c.failures().maxBadRows()).isEqualTo(job.get(JobOptions.MAX_BAD_ROWS));
    assertThat(c.writer().batchPartitions()).isEqualTo(job.get(JobOptions.BATCH_PARTITIONS));
    assertThat(c.nonFrozenCollections()).isEqualTo(job.get(JobOptions.NON_FROZEN_COLLECTIONS));
    assertThat(c.warnings()).isEmpty();
    assertThat(JobOptions.defaultDoc(JobOptions.PORT)).isEqualTo("`9042`");
    assertThat(JobOptions.defaultDoc(JobOptions.HOST)).isEqualTo("required");
    assertThat(JobOptions.defaultDoc(JobOptions.LOCAL_DC)).isEqualTo("driver's inference");
    assertThat(JobOptions.defaultDoc(JobOptions.CONSTANTS)).isEqualTo("none");
    assertThat(JobOptions.defaultDoc(JobOptions.USERNAME)).isEqualTo("none");
  }

  /**
   * A valid job whose source is of {@code type} (parquet, dynamodb) with {@code value} at {@code
   * path} of its source; a key of a DynamoDB target only is set on a DynamoDB target.
   */
  @SuppressWarnings("unchecked")
  private static String typedJobWith(String type, String path, Object value) {
    Map<String, Object> root = new Yaml().load(jobWith("", "drop", List.of()));
    Map<String, Object> source = new LinkedHashMap<>();
    source.put("type", type);
    source.put(type.equals("parquet") ? "path" : "table", "data");
    root.put(DYNAMODB_TARGET_KEYS.contains(path) ? "target" : "source", source);
    Map<String, Object> at = source;
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length - 1; i++) {
      at = (Map<String, Object>) at.computeIfAbsent(parts[i], k -> new LinkedHashMap<>());
    }
    at.put(parts[parts.length - 1], value);
    return new Yaml().dump(root);
  }

  /** A valid job with {@code value} at {@code path} of {@code section} ("" = the top). */
  @SuppressWarnings("unchecked")
  private static String jobWith(String section, String path, Object value) {
    Map<String, Object> root = new LinkedHashMap<>();
    for (String side : List.of("source", "target")) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("host", "10.0.0.1");
      s.put("keyspace", "ks");
      s.put("table", side);
      root.put(side, s);
    }
    Map<String, Object> at = section.isEmpty() ? root : (Map<String, Object>) root.get(section);
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length - 1; i++) {
      at = (Map<String, Object>) at.computeIfAbsent(parts[i], k -> new LinkedHashMap<>());
    }
    at.put(parts[parts.length - 1], value);
    return new Yaml().dump(root);
  }
}
