package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Limits;
import io.varve.core.kv.KvLimits;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.server.DocPages;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tables of docs/limits.md are written by hand; their "Config key" column is tied to the
 * declarations ({@link ConfigFile#OPTIONS}): each key it names is a declared key (or a namespace
 * configuration key), a range given beside a key is the declared range, a row without a key says
 * the limit is {@code fixed} or {@code derived}, and the default (or value) the row gives is the
 * declared default of its keys; every limit of {@link Limits} is a key of a row. Every limit of the
 * KeyValue service ({@link KvLimits}) is shown in docs/key-value.md's table of limits.
 */
class LimitsDocsTest {

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** A range beside a key: {@code (1..32)}, {@code (1..256 MiB)}. */
  private static final Pattern RANGE = Pattern.compile("^\\s*\\((\\d+)\\.\\.(\\d+)( [KMG]iB)?\\)");

  private static final Pattern DECLARED_RANGE = Pattern.compile("(\\d+)\\.\\.(\\d+)");

  /** A row of a table with a "Config key" column: its line and its cells by heading. */
  record Row(int line, Map<String, String> cells) {
    String where() {
      return "docs/limits.md:" + line;
    }
  }

  private static final List<Row> ROWS = new ArrayList<>();

  @BeforeAll
  static void readTables() throws IOException {
    List<String> lines = Files.readAllLines(ReferenceConfigTest.docs("limits.md"));
    List<String> heading = List.of();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.startsWith("|")) {
        heading = List.of();
        continue;
      }
      List<String> cells = cells(line);
      if (heading.isEmpty()) {
        heading = cells;
      } else if (heading.contains("Config key") && !cells.get(0).startsWith("---")) {
        Map<String, String> byHeading = new LinkedHashMap<>();
        for (int c = 0; c < heading.size(); c++) {
          byHeading.put(heading.get(c), cells.get(c));
        }
        ROWS.add(new Row(i + 1, byHeading));
      }
    }
  }

  @Test
  void each_config_key_of_the_tables_is_declared_with_the_range_shown() {
    List<String> problems = new ArrayList<>();
    for (Row row : ROWS) {
      String cell = row.cells().get("Config key");
      Matcher code = CODE.matcher(cell);
      boolean named = false;
      while (code.find()) {
        named = true;
        String key = code.group(1);
        Optional<Option<?>> option = ConfigFile.OPTIONS.option(key);
        if (option.isEmpty()) {
          if (!NamespaceConfigDocsTest.isNamespaceKey(key)) {
            problems.add(
                row.where() + ": `" + key + "` is neither a server key nor a namespace key");
          }
          continue;
        }
        Matcher shown = RANGE.matcher(cell.substring(code.end()));
        if (shown.find()) {
          long unit = unit(shown.group(3));
          Matcher declared = DECLARED_RANGE.matcher(option.get().typeDoc());
          String range =
              Long.parseLong(shown.group(1)) * unit + ".." + Long.parseLong(shown.group(2)) * unit;
          if (!declared.find() || !range.equals(declared.group())) {
            problems.add(
                row.where()
                    + ": `"
                    + key
                    + "` shown as "
                    + shown.group().strip()
                    + ", declared as "
                    + option.get().typeDoc());
          }
        }
      }
      if (!named && !List.of("", "fixed", "derived").contains(cell)) {
        problems.add(row.where() + ": names no key and is not fixed or derived: " + cell);
      }
    }

    assertThat(ROWS)
        .as("rows of docs/limits.md's tables with a Config key column")
        .hasSizeGreaterThan(20);
    assertThat(problems).isEmpty();
  }

  @Test
  void each_row_gives_the_declared_default_of_its_keys() {
    OptionValues defaults = OptionValues.defaults(ConfigFile.OPTIONS);
    List<String> problems = new ArrayList<>();
    for (Row row : ROWS) {
      String shown = row.cells().getOrDefault("Default", row.cells().get("Value"));
      Matcher code = CODE.matcher(row.cells().get("Config key"));
      while (code.find()) {
        Optional<Option<?>> option = ConfigFile.OPTIONS.option(code.group(1));
        if (option.isEmpty() || !option.get().hasDefault()) {
          continue;
        }
        List<String> forms = DocPages.figures(defaults.get(option.get()));
        if (!forms.isEmpty() && !DocPages.showsFigure(shown, forms)) {
          problems.add(
              row.where()
                  + ": `"
                  + code.group(1)
                  + "` defaults to "
                  + defaults.get(option.get())
                  + ", the row shows "
                  + (shown.isEmpty() ? "none" : shown)
                  + " (written as one of "
                  + forms
                  + ")");
        }
      }
    }

    assertThat(problems).isEmpty();
  }

  @Test
  void every_time_series_limit_is_a_declared_key_in_a_row_of_the_tables() {
    List<String> named = new ArrayList<>();
    for (Row row : ROWS) {
      Matcher code = CODE.matcher(row.cells().get("Config key"));
      while (code.find()) {
        named.add(code.group(1));
      }
    }
    List<String> missing = new ArrayList<>();
    for (RecordComponent c : Limits.class.getRecordComponents()) {
      String key = "timeseries.limits." + c.getName();
      if (ConfigFile.OPTIONS.option(key).isEmpty() || !named.contains(key)) {
        missing.add(
            "Limits."
                + c.getName()
                + ": "
                + key
                + (ConfigFile.OPTIONS.option(key).isEmpty()
                    ? " is not declared"
                    : " is in no Config key cell of docs/limits.md"));
      }
    }

    assertThat(missing).isEmpty();
  }

  /**
   * The row of docs/key-value.md's table of limits that shows each limit of {@link KvLimits}, and
   * the server key that sets it, if one does.
   */
  private static final Map<String, List<String>> KV_ROWS =
      Map.ofEntries(
          Map.entry("maxIdBytes", List.of("`id`")),
          Map.entry("maxKeyBytes", List.of("item key")),
          Map.entry("maxValueBytes", List.of("item value", "`kv.chunks.threshold`")),
          Map.entry("maxItemsPerRequest", List.of("items per PutItems")),
          Map.entry("maxRequestBytes", List.of("keys plus values of at most 1 MiB of a PutItems")),
          Map.entry("maxMatchKeys", List.of("`match_keys`")),
          Map.entry("defaultPageSizeBytes", List.of("`page_size_bytes`")),
          Map.entry("maxPageSizeBytes", List.of("`page_size_bytes`")),
          Map.entry("maxTokenAge", List.of("`generation_time`", "`kv.limits.maxTokenAge`")),
          Map.entry("maxTokenLead", List.of("`generation_time`", "`kv.limits.maxTokenLead`")),
          Map.entry(
              "maxFetchBytes", List.of("one GetItems CQL fetch", "`kv.limits.maxFetchBytes`")),
          Map.entry("maxCacheBytes", List.of("point-read cache", "`kv.cache.maxBytes`")));

  @Test
  void every_key_value_limit_is_shown_in_the_limits_table_of_key_value_md() throws Exception {
    List<String> lines = Files.readAllLines(ReferenceConfigTest.docs("key-value.md"));
    Map<String, String> bounds = new LinkedHashMap<>();
    Map<String, Integer> at = new LinkedHashMap<>();
    int start = lines.indexOf("| What | Bound |");
    assertThat(start).as("docs/key-value.md: the table | What | Bound |").isNotNegative();
    for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      List<String> cells = cells(lines.get(i));
      bounds.put(cells.get(0), cells.get(1));
      at.put(cells.get(0), i + 1);
    }
    List<String> problems = new ArrayList<>();
    for (RecordComponent c : KvLimits.class.getRecordComponents()) {
      List<String> row = KV_ROWS.get(c.getName());
      if (row == null) {
        problems.add("KvLimits." + c.getName() + ": no row of the table is tied to it (KV_ROWS)");
        continue;
      }
      String bound = bounds.get(row.get(0));
      Object value = c.getAccessor().invoke(KvLimits.DEFAULT);
      boolean shown =
          bound != null
              && (DocPages.showsFigure(bound, DocPages.figures(value))
                  || row.size() > 1 && bound.contains(row.get(1)));
      if (!shown) {
        problems.add(
            "docs/key-value.md:"
                + at.getOrDefault(row.get(0), start + 1)
                + ": row "
                + row.get(0)
                + ": "
                + (bound == null ? "missing" : bound)
                + "; expected KvLimits."
                + c.getName()
                + " = "
                + value
                + (row.size() > 1 ? " or " + row.get(1) : ""));
      }
    }

    assertThat(problems).isEmpty();
  }

  private static long unit(String unit) {
    return unit == null
        ? 1
        : switch (unit.strip()) {
          case "KiB" -> 1L << 10;
          case "MiB" -> 1L << 20;
          default -> 1L << 30;
        };
  }

  private static List<String> cells(String line) {
    List<String> cells = new ArrayList<>();
    for (String cell : line.substring(1, line.length() - 1).split("(?<!\\\\)\\|", -1)) {
      cells.add(cell.strip());
    }
    return cells;
  }
}
