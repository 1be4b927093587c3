package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.varve.reshaper.config.JobOption.Scope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The parser reads every key of the registry, through the key's own type and range. */
class JobOptionsTest {

  @Test
  void every_option_is_read_by_the_parser_and_refuses_a_bad_value_naming_its_key_and_range() {
    List<JobOption<?>> options = JobOptions.all().stream().filter(o -> !o.ignored()).toList();
    assertThat(options).hasSizeGreaterThan(50);
    for (JobOption<?> option : options) {
      String side = option.scope() == Scope.SOURCE ? "source"
          : option.scope() == Scope.JOB ? "" : "target";
      String fullKey = side.isEmpty() ? option.key() : side + "." + option.path();
      ConfigException refused = null;
      Object bad = null;
      // a scalar that is no number, boolean or choice; then a mapping, which no text accepts
      for (Object candidate : List.of("nope", Map.of("a", 1))) {
        bad = candidate;
        refused = catchThrowableOfType(ConfigException.class,
            () -> JobConfigLoader.parse(jobWith(side, option.path(), candidate)));
        if (refused != null && refused.getMessage().startsWith(fullKey + ": " + candidate)) {
          break;
        }
      }
      assertThat(refused).as(option + " refuses a bad value").isNotNull();
      assertThat(refused.getMessage()).as(option.toString())
          .isEqualTo(fullKey + ": " + bad + " (expected: " + option.expected() + ")");
    }
  }

  @Test
  void keys_of_one_side_are_refused_in_the_other() {
    assertThat(catchThrowableOfType(ConfigException.class, () -> JobConfigLoader.parse(
        jobWith("target", "splitCount", 8)))).hasMessage("target.splitCount: 8 (expected: no"
            + " value: this key belongs to the source section)");
    assertThat(catchThrowableOfType(ConfigException.class, () -> JobConfigLoader.parse(
        jobWith("source", "writeTTLInS", 60)))).hasMessage("source.writeTTLInS: 60 (expected:"
            + " no value: this key belongs to the target section)");
  }

  @Test
  void absent_keys_take_their_documented_defaults() {
    JobConfig c = JobConfigLoader.parse(jobWith("", "drop", List.of()));
    assertThat(c.source().port()).isEqualTo(JobOptions.PORT.defaultValue());
    assertThat(c.source().fetchSize()).isEqualTo(JobOptions.FETCH_SIZE.defaultValue());
    assertThat(c.failures().maxBadRows()).isEqualTo(JobOptions.MAX_BAD_ROWS.defaultValue());
    assertThat(c.writer().batchPartitions())
        .isEqualTo(JobOptions.BATCH_PARTITIONS.defaultValue());
    assertThat(c.nonFrozenCollections())
        .isEqualTo(JobOptions.NON_FROZEN_COLLECTIONS.defaultValue());
    assertThat(JobOptions.PORT.defaultDoc()).isEqualTo("`9042`");
    assertThat(JobOptions.HOST.defaultDoc()).isEqualTo("required");
    assertThat(JobOptions.LOCAL_DC.defaultDoc()).isEqualTo("driver's inference");
    assertThat(JobOptions.CONSTANTS.defaultDoc()).isEqualTo("none");
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
