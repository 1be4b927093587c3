package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.config.JobOption.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The key tables of docs/reshaper.md are generated from {@link JobOptions}: each block between
 * {@code <!-- job options: <sections> -->} and {@code <!-- end of job options -->} must equal
 * the table of those sections' options, and every option must be in exactly one block. Run
 * with {@code -Dvarve.docs.write=true} to rewrite the blocks after changing an option.
 */
class JobOptionsDocsTest {
  private static final Path DOCS = Path.of("..", "docs", "reshaper.md");
  private static final Pattern BLOCK = Pattern.compile(
      "(<!-- job options: ([a-zA-Z ]+) -->\\n)(.*?)(<!-- end of job options -->)", Pattern.DOTALL);

  @Test
  void every_key_table_of_the_docs_is_generated_from_the_options() throws IOException {
    String docs = Files.readString(DOCS);
    List<JobOption<?>> documented = new ArrayList<>();
    StringBuilder expected = new StringBuilder();
    Matcher m = BLOCK.matcher(docs);
    while (m.find()) {
      List<String> sections = Arrays.asList(m.group(2).trim().split(" +"));
      List<JobOption<?>> options = JobOptions.all().stream()
          .filter(o -> !o.ignored() && sections.contains(section(o))).toList();
      documented.addAll(options);
      m.appendReplacement(expected, Matcher.quoteReplacement(m.group(1) + table(options)
          + m.group(4)));
    }
    m.appendTail(expected);
    if (Boolean.getBoolean("varve.docs.write")) {
      Files.writeString(DOCS, expected);
      docs = expected.toString();
    }

    assertThat(docs).as("docs/reshaper.md; -Dvarve.docs.write=true rewrites it")
        .isEqualTo(expected.toString());
    assertThat(documented).as("options documented once each")
        .containsExactlyInAnyOrderElementsOf(JobOptions.all().stream()
            .filter(o -> !o.ignored()).toList());
  }

  @Test
  void the_tables_give_defaults_and_ranges() {
    String table = table(List.of(JobOptions.PORT, JobOptions.HOST, JobOptions.SPLIT_COUNT,
        JobOptions.ON_CONFLICT));
    assertThat(table).contains("| `port` | an integer 1..65535 | `9042` | CQL port. |")
        .contains("| `host` | an address like 10.0.0.1 or a list like 10.0.0.1,10.0.0.2 |"
            + " required |")
        .contains("| `source.splitCount` | an integer 0..1000000 | `max(64, 256 × nodes)` |")
        .contains("| `reshape.onConflict` | one of keepMax, keepMin, keepNewestWritetime, fail"
            + " | none |");
  }

  /** The top-level section an option is documented under. */
  private static String section(JobOption<?> option) {
    if (option.scope() != Scope.JOB) {
      return "source";
    }
    int dot = option.path().indexOf('.');
    return dot < 0 ? option.path() : option.path().substring(0, dot);
  }

  private static String table(List<JobOption<?>> options) {
    StringBuilder out = new StringBuilder("| key | accepts | default | meaning |\n"
        + "|---|---|---|---|\n");
    for (JobOption<?> o : options) {
      out.append("| `").append(o.key()).append("` | ").append(cell(o.expected())).append(" | ")
          .append(cell(o.defaultDoc())).append(" | ").append(cell(o.doc())).append(" |\n");
    }
    return out.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
