package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.options.Option;
import io.varve.options.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The key tables of docs/reshaper.md are generated from {@link JobOptions}: each block between
 * {@code <!-- job options: <sections> -->} and {@code <!-- end of job options -->} must equal the
 * table of those sections' options, and every option must be in exactly one block. Run with {@code
 * -Dvarve.docs.write=true} to rewrite the blocks after changing an option. Every job key named in a
 * code span of any page ({@code failures.maxBadRows}, {@code source.splitCount}) is one the job
 * file takes.
 */
class JobOptionsDocsTest {
  private static final Path ROOT = Path.of("..");
  private static final Path DOCS = ROOT.resolve("docs").resolve("reshaper.md");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern BLOCK =
      Pattern.compile(
          "(<!-- job options: ([a-zA-Z ]+) -->\\n)(.*?)(<!-- end of job options -->)",
          Pattern.DOTALL);

  @Test
  void every_key_table_of_the_docs_is_generated_from_the_options() throws IOException {
    String docs = Files.readString(DOCS);
    List<Option<?>> documented = new ArrayList<>();
    StringBuilder expected = new StringBuilder();
    Matcher m = BLOCK.matcher(docs);
    while (m.find()) {
      List<String> sections = Arrays.asList(m.group(2).trim().split(" +"));
      List<Option<?>> options =
          JobOptions.documented().stream().filter(o -> sections.contains(section(o))).toList();
      documented.addAll(options);
      m.appendReplacement(
          expected, Matcher.quoteReplacement(m.group(1) + table(options) + m.group(4)));
    }
    m.appendTail(expected);
    if (Boolean.getBoolean("varve.docs.write")) {
      Files.writeString(DOCS, expected);
      docs = expected.toString();
    }

    assertThat(docs)
        .as("docs/reshaper.md; -Dvarve.docs.write=true rewrites it")
        .isEqualTo(expected.toString());
    assertThat(documented)
        .as("options documented once each")
        .containsExactlyInAnyOrderElementsOf(JobOptions.documented());
  }

  @Test
  void the_tables_give_defaults_and_ranges() {
    String table =
        table(
            List.of(
                JobOptions.PORT, JobOptions.HOST, JobOptions.SPLIT_COUNT, JobOptions.ON_CONFLICT));
    assertThat(table)
        .contains("| `port` | an integer 1..65535 | `9042` | CQL port. |")
        .contains(
            "| `host` | an address like 10.0.0.1 or a list like 10.0.0.1,10.0.0.2 |"
                + " required |")
        .contains("| `source.splitCount` | an integer 0..1000000 | `max(64, 256 × nodes)` |")
        .contains(
            "| `reshape.onConflict` | one of keepMax, keepMin, keepNewestWritetime, fail"
                + " | none |");
  }

  @Test
  void every_job_key_the_docs_name_is_declared() throws IOException {
    Set<String> starts = new TreeSet<>();
    Stream.of(JobOptions.FILE, JobOptions.SIDE, JobOptions.PARQUET_ONLY, JobOptions.DYNAMODB_ONLY)
        .flatMap(o -> o.options().stream())
        .map(o -> o.key().split("\\.")[0])
        .forEach(starts::add);
    Pattern key = Pattern.compile("([a-z][A-Za-z0-9_]*(?:\\.[A-Za-z0-9_*<>-]+)+)(?::\\s*\\S+)?");
    List<String> checked = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (Path page : pages()) {
      List<String> lines = Files.readAllLines(page);
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).stripLeading().startsWith("```")) {
          fenced = !fenced;
          continue;
        }
        Matcher span = CODE.matcher(lines.get(i));
        while (!fenced && span.find()) {
          Matcher m = key.matcher(span.group(1));
          if (m.matches() && starts.contains(m.group(1).split("\\.")[0])) {
            checked.add(m.group(1));
            if (!isJobKey(m.group(1))) {
              unknown.add(ROOT.relativize(page) + ":" + (i + 1) + ": `" + m.group(1) + "`");
            }
          }
        }
      }
    }

    assertThat(checked)
        .as("job keys found in the docs")
        .contains("failures.maxBadRows", "source.splitCount", "sslOptions.keyStorePath");
    assertThat(unknown).as("keys in the docs that JobOptions does not declare").isEmpty();
    assertThat(isJobKey("writer.batchRow")).isFalse();
    assertThat(isJobKey("source.writeTTLInS")).as("a key of the target only").isFalse();
  }

  @Test
  void every_job_file_example_of_the_docs_loads() throws IOException {
    List<String> lines = Files.readAllLines(DOCS);
    int examples = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).equals("```yaml")) {
        continue;
      }
      StringBuilder yaml = new StringBuilder();
      int start = i + 1;
      while (!lines.get(++i).startsWith("```")) {
        yaml.append(lines.get(i)).append('\n');
      }
      examples++;
      try {
        JobConfigLoader.parse(yaml.toString());
      } catch (RuntimeException e) {
        throw new AssertionError("docs/reshaper.md:" + start + ": the job file example: " + e, e);
      }
    }

    assertThat(examples).as("job file examples in docs/reshaper.md").isGreaterThanOrEqualTo(3);
  }

  /**
   * Whether the docs' {@code key} is one the job file takes: a key of the job's sections, a key of
   * a side after {@code source.} or {@code target.} (or alone, as the sides' table writes it), an
   * option of a mapping that takes any ({@code spark.*}), or a {@code prefix.*} of keys.
   */
  private static boolean isJobKey(String key) {
    List<String> file = JobOptions.FILE.options().stream().map(Option::key).toList();
    List<String> side =
        Stream.of(JobOptions.SIDE, JobOptions.PARQUET_ONLY, JobOptions.DYNAMODB_ONLY)
            .flatMap(o -> o.options().stream())
            .map(Option::key)
            .toList();
    if (file.contains(key) || side.contains(key) || key.startsWith("spark.")) {
      return true;
    }
    if (key.endsWith(".*")) {
      String prefix = key.substring(0, key.length() - 1);
      return Stream.concat(file.stream(), side.stream()).anyMatch(k -> k.startsWith(prefix));
    }
    for (String name : List.of("source", "target")) {
      if (key.startsWith(name + ".")) {
        String rest = key.substring(name.length() + 1);
        Options other = name.equals("source") ? JobOptions.TARGET_ONLY : JobOptions.SOURCE_ONLY;
        boolean sideKey =
            Stream.of(JobOptions.SIDE, JobOptions.PARQUET_ONLY, JobOptions.DYNAMODB_ONLY)
                .flatMap(o -> o.options().stream())
                .anyMatch(o -> o.key().equals(rest) && !other.contains(o));
        return sideKey || rest.startsWith(JobOptions.CONNECTOR_OPTIONS.key() + ".");
      }
    }
    return false;
  }

  /** docs/*.md, README.md and the modules' READMEs (CHANGELOG.md keeps past releases). */
  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
        String name = module.getFileName().toString();
        if (name.startsWith(".") || name.equals("target")) {
          continue;
        }
        try (Stream<Path> readmes = Files.walk(module, 2)) {
          readmes
              .filter(p -> p.getFileName().toString().equals("README.md"))
              .filter(p -> !p.toString().contains("/target/"))
              .sorted()
              .forEach(pages::add);
        }
      }
    }
    return pages;
  }

  /** The top-level section an option is documented under. */
  private static String section(Option<?> option) {
    if (JobOptions.PARQUET_ONLY.contains(option)) {
      return "parquet";
    }
    if (JobOptions.DYNAMODB_ONLY.contains(option)) {
      return "dynamodb";
    }
    if (JobOptions.SIDE.contains(option)) {
      return "source";
    }
    int dot = option.key().indexOf('.');
    return dot < 0 ? option.key() : option.key().substring(0, dot);
  }

  static String table(List<Option<?>> options) {
    return table(options, JobOptions::documentedKey, JobOptions::defaultDoc);
  }

  /** The docs' table of these options: key, what it accepts, its default, its meaning. */
  static String table(
      List<Option<?>> options,
      java.util.function.Function<Option<?>, String> key,
      java.util.function.Function<Option<?>, String> defaultDoc) {
    StringBuilder out =
        new StringBuilder("| key | accepts | default | meaning |\n" + "|---|---|---|---|\n");
    for (Option<?> o : options) {
      out.append("| `")
          .append(key.apply(o))
          .append("` | ")
          .append(cell(o.typeDoc()))
          .append(" | ")
          .append(cell(defaultDoc.apply(o)))
          .append(" | ")
          .append(cell(o.doc()))
          .append(" |\n");
    }
    return out.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
