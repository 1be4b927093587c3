package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.namespace.NamespaceBounds;
import io.varve.core.namespace.TimeSeriesSlos;
import io.varve.core.partitioning.TimePartition;
import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.SloCatalog;
import io.varve.server.DocPages;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ties the tables of docs/namespace-configuration.md to the code: every key of the {@code
 * PersistenceConfiguration} message has a row in each entry's tables (or is under one), each row
 * names a real key with its type, each default is what {@link NamespaceConfigMapper} fills in, and
 * every bound of {@link NamespaceBounds} and {@link TimePartition} is shown in the row of the key
 * it bounds, which refuses a value just past it. A new key or bound cannot miss the docs. Every
 * namespace configuration key named anywhere in the docs ({@code queueBuffering.drainRate}, {@code
 * lifecycleConfig[0].config.delete_after}) is a key of the message, and the table of endpoints with
 * objectives is {@link TimeSeriesSlos}'s catalog.
 */
class NamespaceConfigDocsTest {

  private static final String PRIMARY = NamespaceConfigMapper.PRIMARY;
  private static final String INDEX = NamespaceConfigMapper.INDEX;
  private static final String NAMESPACE = "docs_ns";
  private static final String INDEX_ENTRY =
      "\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\","
          + " \"dataset\": \"docs_idx\"}";

  /** Defaults the docs give in words, since they come from elsewhere. */
  private static final Map<String, String> DERIVED =
      Map.of(
          PRIMARY + " physicalStorage.dataset", "the namespace name",
          INDEX + " config.acceptLimit", "the primary's `acceptLimit`");

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** A table row of one entry's section: its keys and its cells by column heading. */
  record Row(List<String> keys, Map<String, String> cells) {}

  private static final Map<String, List<Row>> ROWS = new LinkedHashMap<>();

  @BeforeAll
  static void readDocs() throws IOException {
    String page = Files.readString(ReferenceConfigTest.docs("namespace-configuration.md"));
    ROWS.put(PRIMARY, rows(between(page, "## `PRIMARY_STORAGE`", "## `INDEX_STORAGE`")));
    ROWS.put(INDEX, rows(between(page, "## `INDEX_STORAGE`", "## Validation")));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {PRIMARY, INDEX})
  void every_key_has_a_row_and_every_row_names_a_key(String entry) {
    Map<String, String> keys = keys(PersistenceConfiguration.getDescriptor(), "");
    Set<String> documented =
        ROWS.get(entry).stream().flatMap(r -> r.keys().stream()).collect(Collectors.toSet());

    List<String> missing =
        keys.entrySet().stream()
            .filter(k -> !k.getValue().equals("mapping"))
            .map(Map.Entry::getKey)
            .filter(
                k ->
                    documented.stream()
                        .noneMatch(
                            d -> k.equals(d) || k.startsWith(d + ".") || k.startsWith(d + "[")))
            .toList();
    assertThat(missing)
        .as("keys of %s without a row in docs/namespace-configuration.md", entry)
        .isEmpty();
    assertThat(documented).as("rows of %s naming no key", entry).isSubsetOf(keys.keySet());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {PRIMARY, INDEX})
  void each_row_gives_the_type_of_its_keys(String entry) {
    Map<String, String> keys = keys(PersistenceConfiguration.getDescriptor(), "");

    for (Row row : ROWS.get(entry)) {
      for (String key : row.keys()) {
        assertThat(row.cells().get("Type")).as("%s %s", entry, key).isEqualTo(keys.get(key));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {PRIMARY, INDEX})
  void each_default_is_the_one_the_server_fills_in(String entry)
      throws InvalidProtocolBufferException {
    List<PersistenceConfiguration> normalized =
        new NamespaceConfigMapper("varve")
            .map(NAMESPACE, List.of(entry("\"id\": \"PRIMARY_STORAGE\""), entry(INDEX_ENTRY)))
            .normalized();
    Map<String, String> defaults = new LinkedHashMap<>();
    values(normalized.get(entry.equals(PRIMARY) ? 0 : 1), "", defaults);
    defaults.remove("id");
    if (entry.equals(INDEX)) {
      defaults.keySet().removeAll(List.of("physicalStorage.type", "physicalStorage.dataset"));
    }

    assertThat(defaults).as("the defaults filled in").containsKey("config.acceptLimit");
    defaults.forEach(
        (key, value) -> {
          String cell = row(entry, key).cells().get("Default");
          String expected = DERIVED.getOrDefault(entry + " " + key, "`" + value + "`");
          assertThat(cell).as("%s default of %s", entry, key).contains(expected);
        });
    ROWS.get(entry)
        .forEach(
            row ->
                assertThat(row.cells().get("Default")).as("%s default", row.keys()).isNotBlank());
  }

  /** A bound, the entry and key it bounds, and a configuration of that entry just past it. */
  record Bound(
      Class<?> owner, String constant, String entry, String key, LongFunction<String> pastIt) {
    @Override
    public String toString() {
      return owner.getSimpleName() + "." + constant + " -> " + entry + " " + key;
    }
  }

  static Stream<Bound> bounds() {
    Class<?> nb = NamespaceBounds.class;
    Class<?> tp = TimePartition.class;
    String timePartition = "config.timePartition.";
    return Stream.of(
        new Bound(
            nb,
            "MIN_SECONDS_PER_TIME_SLICE",
            PRIMARY,
            timePartition + "secondsPerTimeSlice",
            v -> "\"config\": {\"timePartition\": {\"secondsPerTimeSlice\": " + (v - 1) + "}}"),
        new Bound(
            tp,
            "MAX_SECONDS_PER_TIME_SLICE",
            PRIMARY,
            timePartition + "secondsPerTimeSlice",
            v -> "\"config\": {\"timePartition\": {\"secondsPerTimeSlice\": " + (v + 1) + "}}"),
        new Bound(
            nb,
            "MIN_SECONDS_PER_TIME_BUCKET",
            PRIMARY,
            timePartition + "secondsPerTimeBucket",
            v -> "\"config\": {\"timePartition\": {\"secondsPerTimeBucket\": " + (v - 1) + "}}"),
        new Bound(
            nb,
            "MAX_TIME_BUCKETS_PER_SLICE",
            PRIMARY,
            timePartition + "secondsPerTimeBucket",
            v ->
                "\"config\": {\"timePartition\": {\"secondsPerTimeSlice\": "
                    + 60 * (v + 1)
                    + ", \"secondsPerTimeBucket\": 60}}"),
        new Bound(
            tp,
            "MAX_EVENT_BUCKETS",
            PRIMARY,
            timePartition + "eventBuckets",
            v -> "\"config\": {\"timePartition\": {\"eventBuckets\": " + (v + 1) + "}}"),
        new Bound(
            nb,
            "MAX_COALESCE",
            PRIMARY,
            "config.queueBuffering.coalesce",
            v -> "\"config\": {\"queueBuffering\": {\"coalesce\": \"" + (v + 1) + "s\"}}"),
        new Bound(
            nb,
            "MAX_BUFFER_CAPACITY",
            PRIMARY,
            "config.queueBuffering.bufferCapacity",
            v -> "\"config\": {\"queueBuffering\": {\"bufferCapacity\": " + (v + 1) + "}}"),
        new Bound(
            nb,
            "MAX_DRAIN_RATE",
            PRIMARY,
            "config.queueBuffering.drainRate",
            v -> "\"config\": {\"queueBuffering\": {\"drainRate\": " + (v + 1) + "}}"),
        new Bound(
            nb,
            "MAX_CLUSTER_NAME_LENGTH",
            PRIMARY,
            "physicalStorage.cluster",
            v -> "\"physicalStorage\": {\"cluster\": \"" + "c".repeat((int) v + 1) + "\"}"),
        new Bound(
            nb,
            "MAX_DURATION",
            PRIMARY,
            "config.acceptLimit",
            v -> "\"config\": {\"acceptLimit\": \"" + (v + 1) + "s\"}"),
        new Bound(
            nb,
            "MAX_DURATION",
            PRIMARY,
            "lifecycleConfigs.lifecycleConfig[0].config.close_after",
            v -> retention("close_after", v + 1)),
        new Bound(
            nb,
            "MAX_WRITE_WINDOW_SLICES",
            PRIMARY,
            "config.acceptLimit",
            v ->
                "\"config\": {\"timePartition\": {\"secondsPerTimeSlice\": 3600}, \"acceptLimit\": \""
                    + (v + 1) * 3600
                    + "s\"}"),
        new Bound(
            nb,
            "MAX_RETAINED_SLICES",
            PRIMARY,
            "lifecycleConfigs.lifecycleConfig[0].config.delete_after",
            v ->
                "\"config\": {\"timePartition\": {\"secondsPerTimeSlice\": 3600}}, "
                    + retention("delete_after", v * 3600)),
        new Bound(
            nb,
            "MIN_SECONDS_PER_INDEX_SLICE",
            INDEX,
            timePartition + "secondsPerSlice",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"timePartition\": {\"secondsPerSlice\": "
                    + (v - 1)
                    + "}}"),
        new Bound(
            nb,
            "MAX_SECONDS_PER_INDEX_SLICE",
            INDEX,
            timePartition + "secondsPerSlice",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"timePartition\": {\"secondsPerSlice\": "
                    + (v + 1)
                    + "}}"),
        new Bound(
            nb,
            "MAX_INDEX_WINDOW_SLICES",
            INDEX,
            "config.acceptLimit",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"timePartition\": {\"secondsPerSlice\": 3600}, \"acceptLimit\": \""
                    + v * 3600
                    + "s\"}"),
        new Bound(
            nb,
            "MAX_RETAINED_INDEX_SLICES",
            INDEX,
            "lifecycleConfigs",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"timePartition\": {\"secondsPerSlice\": 3600}}, "
                    + retention("delete_after", v * 3600)),
        new Bound(
            nb,
            "MAX_DURATION",
            INDEX,
            "config.indexConfig.refreshInterval",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"indexConfig\": {\"refreshInterval\": \""
                    + (v + 1)
                    + "s\"}}"),
        new Bound(
            nb,
            "MIN_REFRESH_INTERVAL",
            INDEX,
            "config.indexConfig.refreshInterval",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"indexConfig\": {\"refreshInterval\": \""
                    + (v * 1000 - 1) / 1000.0
                    + "s\"}}"),
        new Bound(
            nb,
            "MAX_INDEX_FIELDS",
            INDEX,
            "config.indexConfig.fieldMapping",
            v ->
                INDEX_ENTRY
                    + ", \"config\": {\"indexConfig\": {\"fieldMapping\": {"
                    + Stream.iterate(0, i -> i + 1)
                        .limit(v + 1)
                        .map(i -> "\"f" + i + "\": \"KEYWORD\"")
                        .collect(Collectors.joining(", "))
                    + "}}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bounds")
  void every_bound_is_shown_in_the_row_of_its_key_which_refuses_a_value_past_it(Bound bound)
      throws Exception {
    Object value = bound.owner().getField(bound.constant()).get(null);
    String shown =
        value instanceof Duration d
            ? (d.toSeconds() % 86_400 == 0 ? d.toDays() + "d" : d.toSeconds() + "s")
            : value.toString();
    long number = value instanceof Duration d ? d.toSeconds() : ((Number) value).longValue();
    String rules = row(bound.entry(), camel(bound.key())).cells().get("Rules");

    assertThat(rules)
        .as("rules of %s", bound.key())
        .containsPattern("(?<![0-9A-Za-z])" + Pattern.quote(shown) + "(?![0-9A-Za-z])");
    List<PersistenceConfiguration> entries =
        bound.entry().equals(PRIMARY)
            ? List.of(entry("\"id\": \"PRIMARY_STORAGE\", " + bound.pastIt().apply(number)))
            : List.of(entry("\"id\": \"PRIMARY_STORAGE\""), entry(bound.pastIt().apply(number)));
    String path =
        NamespaceConfigMapper.ROOT
            + "["
            + (bound.entry().equals(PRIMARY) ? 0 : 1)
            + "]."
            + bound.key();
    assertThatThrownBy(() -> new NamespaceConfigMapper("varve").map(NAMESPACE, entries))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).startsWith(path));
  }

  @Test
  void every_bound_of_the_code_is_in_the_table_above() {
    Set<String> covered =
        bounds()
            .map(b -> b.owner().getSimpleName() + "." + b.constant())
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> declared = new TreeSet<>();
    for (Class<?> owner : List.of(NamespaceBounds.class, TimePartition.class)) {
      for (Field f : owner.getFields()) {
        boolean constant =
            Modifier.isStatic(f.getModifiers()) && Modifier.isFinal(f.getModifiers());
        if (constant
            && (f.getType() == long.class
                || f.getType() == int.class
                || f.getType() == Duration.class)) {
          declared.add(owner.getSimpleName() + "." + f.getName());
        }
      }
    }

    assertThat(covered)
        .as("bounds tied to a docs row (add a new one to bounds() and to the docs)")
        .containsExactlyElementsOf(declared);
  }

  /**
   * Every key path under {@code message} into {@code paths}, a map's keys as {@code *}; the names
   * of fields that hold messages or maps, in both spellings, into {@code starts}: the first parts
   * of a key as the docs write it.
   */
  private static void walk(
      Descriptor message, String prefix, List<String> paths, Set<String> starts) {
    for (FieldDescriptor field : message.getFields()) {
      String path = prefix + field.getJsonName();
      paths.add(path);
      if (field.isMapField()) {
        starts.addAll(List.of(field.getName(), field.getJsonName()));
        paths.add(path + ".*");
        FieldDescriptor value = field.getMessageType().findFieldByName("value");
        if (value.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
          walk(value.getMessageType(), path + ".*.", paths, starts);
        }
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          && !field.getMessageType().getFullName().startsWith("google.protobuf.")) {
        starts.addAll(List.of(field.getName(), field.getJsonName()));
        walk(field.getMessageType(), path + ".", paths, starts);
      }
    }
  }

  /**
   * Whether {@code key} is the end of a key path, a {@code *} of the path standing for any part.
   */
  private static boolean isKey(String key, List<String> paths) {
    List<String> parts = List.of(key.split("\\."));
    for (String path : paths) {
      List<String> known = List.of(path.split("\\."));
      if (known.size() < parts.size()) {
        continue;
      }
      List<String> end = known.subList(known.size() - parts.size(), known.size());
      boolean matches = true;
      for (int i = 0; i < end.size(); i++) {
        matches &= end.get(i).equals("*") || end.get(i).equals(parts.get(i));
      }
      if (matches) {
        return true;
      }
    }
    return false;
  }

  private static final Pattern KEY_SPAN =
      Pattern.compile(
          "([a-z][A-Za-z_]*)(?:\\[[^\\]]*\\])?(?:\\.[A-Za-z_<>*][\\w<>*]*(?:\\[[^\\]]*\\])?)+");

  /** Every key path of the configuration, a map's keys as {@code *}. */
  private static final List<String> PATHS = new ArrayList<>();

  /** The first parts a key may start with in the docs. */
  private static final Set<String> STARTS =
      new TreeSet<>(Set.of("persistence_configuration", "persistenceConfiguration"));

  static {
    walk(PersistenceConfiguration.getDescriptor(), "", PATHS, STARTS);
  }

  /**
   * Whether {@code key}, as the docs write it ({@code lifecycleConfig[0].config.delete_after},
   * {@code persistence_configuration[0].config.slos.<key>.latency}), is the end of a key path.
   */
  static boolean isNamespaceKey(String key) {
    return isKey(
        camel(key.replaceAll("\\[[^\\]]*\\]", ""))
            .replaceFirst("^persistenceConfiguration\\.", "")
            .replaceAll("<[^>]*>", "*"),
        PATHS);
  }

  @Test
  void every_namespace_key_the_docs_name_is_a_key_of_the_configuration() {
    List<String> checked = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (DocPages.Span span : DocPages.spans()) {
      Matcher m = KEY_SPAN.matcher(span.text());
      if (!m.matches() || !STARTS.contains(m.group(1)) || FILE.matcher(span.text()).find()) {
        continue;
      }
      if (span.where().startsWith("docs/reshaper.md:")) {
        continue; // the job file's keys (its compaction section too), checked by JobOptionsDocsTest
      }
      checked.add(span.text());
      if (!isNamespaceKey(span.text())) {
        unknown.add(span.where() + ": `" + span.text() + "`");
      }
    }

    assertThat(checked)
        .as("keys found in the docs")
        .contains("queueBuffering.drainRate", "lifecycleConfig[0].config.delete_after");
    assertThat(unknown)
        .as("namespace configuration keys in the docs that PersistenceConfiguration does not have")
        .isEmpty();
  }

  /** A file name, not a key: {@code config.yaml}. */
  private static final Pattern FILE = Pattern.compile("\\.(ya?ml|json|md|proto|log|txt)$");

  @Test
  void the_slos_table_gives_each_endpoint_its_group_and_defaults() throws IOException {
    String page = Files.readString(ReferenceConfigTest.docs("namespace-configuration.md"));
    String header = "| Endpoint | Group | Default `target` | Default `max` |";
    int start = page.indexOf(header);
    assertThat(start).as("the table of endpoints: " + header).isNotNegative();
    List<String> rows = new ArrayList<>();
    for (String line :
        page.substring(start).lines().skip(2).takeWhile(l -> l.startsWith("|")).toList()) {
      List<String> cells = List.of(line.split("\\|"));
      rows.add(cells.subList(1, 5).stream().map(String::strip).collect(Collectors.joining(" | ")));
    }
    SloCatalog catalog = TimeSeriesSlos.CATALOG;
    List<String> expected = new ArrayList<>();
    catalog
        .endpoints()
        .forEach(
            (endpoint, group) -> {
              LatencySlo slo =
                  catalog.endpointDefaults().getOrDefault(endpoint, catalog.defaults().get(group));
              expected.add(
                  "`"
                      + endpoint
                      + "` | `"
                      + group
                      + "` | `"
                      + seconds(slo.target())
                      + "` | `"
                      + seconds(slo.max())
                      + "`");
            });

    assertThat(rows).containsExactlyElementsOf(expected);
  }

  /** A duration as the docs write it: {@code 0.1s}, {@code 2s}. */
  private static String seconds(Duration d) {
    return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
  }

  private static String retention(String key, long seconds) {
    return "\"lifecycleConfigs\": {\"lifecycleConfig\": [{\"type\": \"retention\", \"config\": {\""
        + key
        + "\": \""
        + seconds
        + "s\"}}]}";
  }

  private static PersistenceConfiguration entry(String jsonFields) {
    PersistenceConfiguration.Builder b = PersistenceConfiguration.newBuilder();
    try {
      JsonFormat.parser().merge("{" + jsonFields + "}", b);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(jsonFields, e);
    }
    return b.build();
  }

  /** Every key path of a message, to its type in the docs' words. */
  private static Map<String, String> keys(Descriptor message, String prefix) {
    Map<String, String> out = new LinkedHashMap<>();
    for (FieldDescriptor field : message.getFields()) {
      if (prefix.isEmpty() && field.getName().equals("id")) {
        continue;
      }
      String path = prefix + field.getJsonName();
      if (field.isMapField()) {
        boolean messages =
            field.getMessageType().findFieldByName("value").getJavaType()
                == FieldDescriptor.JavaType.MESSAGE;
        out.put(path, "map of string to " + (messages ? "mapping" : "string"));
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          && field.getMessageType().getFullName().equals("google.protobuf.Duration")) {
        out.put(path, "duration");
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        out.put(path, field.isRepeated() ? "list" : "mapping");
        out.putAll(keys(field.getMessageType(), path + (field.isRepeated() ? "[0]." : ".")));
      } else {
        out.put(
            path,
            switch (field.getJavaType()) {
              case INT, LONG -> "integer";
              case STRING -> "string";
              default -> field.getJavaType().name().toLowerCase();
            });
      }
    }
    return out;
  }

  /** The set scalar and duration fields of a message, by key path, as the docs write them. */
  private static void values(Message message, String prefix, Map<String, String> out) {
    message
        .getAllFields()
        .forEach(
            (field, value) -> {
              String path = prefix + field.getJsonName();
              if (value instanceof com.google.protobuf.Duration d) {
                out.put(path, Durations.toString(d));
              } else if (value instanceof Message m) {
                values(m, path + ".", out);
              } else if (!field.isRepeated()) {
                out.put(path, String.valueOf(value));
              }
            });
  }

  private static Row row(String entry, String key) {
    return ROWS.get(entry).stream()
        .filter(r -> r.keys().contains(key))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row of " + entry + " names " + key));
  }

  private static String between(String page, String from, String to) {
    return page.substring(page.indexOf(from), page.indexOf(to));
  }

  /** The rows of every table whose first column is {@code Key}; keys in camelCase. */
  private static List<Row> rows(String section) {
    List<Row> rows = new ArrayList<>();
    List<String> heading = null;
    for (String line : section.split("\n")) {
      if (!line.startsWith("|")) {
        heading = null;
        continue;
      }
      List<String> cells =
          List.of(line.substring(1, line.length() - 1).split(" \\| ", -1)).stream()
              .map(String::trim)
              .toList();
      if (heading == null) {
        heading = cells.get(0).equals("Key") ? cells : List.of();
      } else if (!heading.isEmpty() && !cells.get(0).startsWith("---")) {
        Map<String, String> byHeading = new LinkedHashMap<>();
        for (int i = 0; i < heading.size(); i++) {
          byHeading.put(heading.get(i), cells.get(i));
        }
        List<String> keys = new ArrayList<>();
        Matcher m = CODE.matcher(cells.get(0));
        while (m.find()) {
          keys.add(camel(m.group(1)));
        }
        rows.add(new Row(keys, byHeading));
      }
    }
    return rows;
  }

  /** A key with snake_case parts ({@code close_after}) in the camelCase of the JSON names. */
  private static String camel(String key) {
    Matcher m = Pattern.compile("_([a-z])").matcher(key);
    return m.replaceAll(r -> r.group(1).toUpperCase());
  }
}
