package io.varve.reshaper.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.options.Option;
import io.varve.options.OptionValues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The options table of docs/spark-data-sources.md is generated from {@link NamespaceSourceOptions}
 * (between {@code <!-- data source options -->} and {@code <!-- end of data source options -->};
 * {@code -Dvarve.docs.write=true} rewrites it), and the options are read as the page says.
 */
class NamespaceSourceOptionsDocsTest {
  private static final Path DOCS = Path.of("..", "docs", "spark-data-sources.md");
  private static final Pattern BLOCK =
      Pattern.compile(
          "(<!-- data source options -->\\n)(.*?)(<!-- end of data source options -->)",
          Pattern.DOTALL);

  @Test
  void the_options_table_is_generated_from_the_declarations() throws IOException {
    String docs = Files.readString(DOCS);
    Matcher m = BLOCK.matcher(docs);
    assertThat(m.find()).as("the options block of docs/spark-data-sources.md").isTrue();
    String table =
        JobOptionsDocsTest.table(
            NamespaceSourceOptions.ALL.options(), Option::key, NamespaceSourceOptions::defaultDoc);
    String expected = docs.substring(0, m.start(2)) + table + docs.substring(m.end(2));
    if (Boolean.getBoolean("varve.docs.write")) {
      Files.writeString(DOCS, expected);
      docs = expected;
    }
    assertThat(docs)
        .as("docs/spark-data-sources.md; -Dvarve.docs.write=true rewrites it")
        .isEqualTo(expected);
  }

  @Test
  void keys_are_matched_ignoring_case_and_an_unknown_key_is_refused_naming_the_known_ones() {
    OptionValues v =
        NamespaceSourceOptions.read(
            Map.of(
                "namespace", "n", "host", "10.0.0.1", "metadatakeyspace", "m", "splitcount", "8"));
    assertThat(v.get(NamespaceSourceOptions.METADATA_KEYSPACE)).isEqualTo("m");
    assertThat(v.get(JobOptions.SPLIT_COUNT)).isEqualTo(8);
    assertThatThrownBy(
            () -> NamespaceSourceOptions.read(Map.of("namespace", "n", "host", "h", "tabel", "t")))
        .hasMessageStartingWith("tabel: t (expected: a key of the data source: one of ")
        .hasMessageContaining("metadataKeyspace");
    assertThatThrownBy(() -> NamespaceSourceOptions.read(Map.of("host", "h")))
        .hasMessage("namespace: missing (expected: the name of an existing namespace)");
    assertThatThrownBy(
            () ->
                NamespaceSourceOptions.read(
                    Map.of(
                        "namespace",
                        "n",
                        "host",
                        "h",
                        "from",
                        "2026-01-02T00:00:00Z",
                        "to",
                        "2026-01-01T00:00:00Z")))
        .hasMessageStartingWith("to: 2026-01-01T00:00:00Z with from 2026-01-02T00:00:00Z");
    assertThatThrownBy(
            () ->
                NamespaceSourceOptions.read(
                    Map.of("namespace", "n", "host", "h", "from", "yesterday")))
        .hasMessageContaining("from: yesterday")
        .hasMessageContaining("ISO-8601");
    assertThatThrownBy(
            () ->
                NamespaceSourceOptions.read(
                    Map.of("namespace", "n", "host", "h", "maxBadRows", "-1")))
        .hasMessageContaining("maxBadRows: -1");
    assertThat(List.of(NamespaceSourceOptions.ALL.options().toArray()))
        .as("no job-file key without effect here")
        .doesNotContain(JobOptions.KEYSPACE, JobOptions.TABLE, JobOptions.WHERE);
  }
}
