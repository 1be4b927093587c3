package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.options.Option;
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
 * {@code <!-- job options: <sections> -->} and {@code <!-- end of job options -->} must equal the
 * table of those sections' options, and every option must be in exactly one block. Run with {@code
 * -Dvarve.docs.write=true} to rewrite the blocks after changing an option.
 */
class JobOptionsDocsTest {
  private static final Path DOCS = Path.of("..", "docs", "reshaper.md");
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

  /** The top-level section an option is documented under. */
  private static String section(Option<?> option) {
    if (JobOptions.SIDE.contains(option)) {
      return "source";
    }
    int dot = option.key().indexOf('.');
    return dot < 0 ? option.key() : option.key().substring(0, dot);
  }

  private static String table(List<Option<?>> options) {
    StringBuilder out =
        new StringBuilder("| key | accepts | default | meaning |\n" + "|---|---|---|---|\n");
    for (Option<?> o : options) {
      out.append("| `")
          .append(JobOptions.documentedKey(o))
          .append("` | ")
          .append(cell(o.typeDoc()))
          .append(" | ")
          .append(cell(JobOptions.defaultDoc(o)))
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
