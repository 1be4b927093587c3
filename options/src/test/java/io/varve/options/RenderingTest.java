package io.varve.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The reference file, the docs table and the log line, all from {@link OptionValuesTest#ALL}. */
class RenderingTest {

  private static final Options ALL = OptionValuesTest.ALL;

  @Test
  void the_reference_file_sets_each_option_to_its_default_under_its_doc_line() {
    String yaml =
        ReferenceFile.render(ALL.under("server"), List.of("The reference.", "", "Second."));

    assertThat(yaml)
        .isEqualTo(
            """
        # The reference.
        #
        # Second.

        # The endpoint.
        server:

          # Port.
          # Type: integer, 0..65535. Default: 8080. Restart to change.
          port: 8080

          # TLS.
          #tls:

            # Chain.
            # Type: string. Default: absent. Restart to change.
            #chain: /c.pem

          # Password.
          # Type: string. Default: absent. Restart to change.
          #password: x
        """);
  }

  @Test
  void the_docs_table_has_a_row_per_option_and_documented_section() {
    String table =
        OptionsTable.render(
            ALL.under("limits").without("limits.x"), "Key", OptionValues.defaults(ALL));

    assertThat(table)
        .isEqualTo(
            """
        | Key | Type, unit | Default | Meaning |
        | --- | --- | --- | --- |
        | `limits.maxPageSize` | integer, 1..1000 | `1000` | Largest page. |
        | `limits.defaultPageSize` | integer, 1..`maxPageSize` | `100` (or `maxPageSize` when smaller) | Default page. |
        | `limits.timeout` | duration | `5s` | Timeout. |
        """);
    assertThat(OptionsTable.render(ALL.under("connectMax"), "Property", OptionValues.defaults(ALL)))
        .contains("| `connectMax` (or `maxConnections`) | integer, 1..10 | `5` | Connections. |");
  }

  @Test
  void the_docs_table_says_which_options_change_at_runtime_when_some_can() {
    Options.Builder b = Options.builder();
    b.option("a", Types.bool()).defaultValue(true).changesAtRuntime().doc("A.");
    b.option("b", Types.bool()).defaultValue(true).doc("B.");
    Options options = b.build();

    assertThat(OptionsTable.render(options, "Key", OptionValues.defaults(options)))
        .contains(
            "| Key | Type, unit | Default | Runtime | Meaning |",
            "| `a` | boolean | `true` | yes | A. |",
            "| `b` | boolean | `true` | no | B. |");
  }

  @Test
  void the_log_line_names_every_option_and_redacts_secrets() {
    EffectiveConfig config =
        new EffectiveConfig(ALL)
            .put(OptionValuesTest.PORT, 80)
            .put(OptionValuesTest.CHAIN, Optional.empty())
            .put(OptionValuesTest.PASSWORD, "hunter2")
            .put(OptionValuesTest.MAX_PAGE, 10)
            .put(OptionValuesTest.PAGE, 10)
            .put(OptionValuesTest.TIMEOUT, java.time.Duration.ofMinutes(2));

    assertThatThrownBy(config::line).hasMessage("no effective value for [connectMax]");
    assertThat(config.describe(OptionValuesTest.CONNECTIONS, "five").line())
        .isEqualTo(
            "server.port=80"
                + " server.tls.chain=(none) server.password=(redacted) limits.maxPageSize=10 limits.defaultPageSize=10"
                + " limits.timeout=2m connectMax=five");
  }

  @Test
  void generated_parts_of_a_page_are_replaced_and_must_all_have_a_source() {
    String page = "intro\n<!-- generated: t -->\nold\n<!-- end: t -->\nafter\n";

    assertThat(GeneratedFiles.update(page, Map.of("t", "new\n")))
        .isEqualTo("intro\n<!-- generated: t -->\n\nnew\n\n<!-- end: t -->\nafter\n");
    assertThatThrownBy(() -> GeneratedFiles.update(page, Map.of()))
        .hasMessageContaining("generated part t with no source");
    assertThatThrownBy(() -> GeneratedFiles.update(page, Map.of("t", "", "u", "")))
        .hasMessageContaining("no generated part named [u]");
  }
}
