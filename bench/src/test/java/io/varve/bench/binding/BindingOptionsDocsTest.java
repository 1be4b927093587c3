package io.varve.bench.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.binding.cql.CqlOptions;
import io.varve.bench.binding.dynamodb.DynamoDbOptions;
import io.varve.bench.binding.varve.VarveOptions;
import io.varve.bench.load.ServerLoadOptions;
import io.varve.options.GeneratedFiles;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.OptionsTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

/**
 * The bindings' property tables in docs/bench.md and docs/bench-dynamodb.md are what the bindings'
 * declarations generate (run with {@code -Dvarve.generate=true} to write them), and the bindings
 * read their properties through those declarations.
 */
class BindingOptionsDocsTest {

  @Test
  void the_bench_page_shows_the_cql_and_varve_properties() throws IOException {
    Path page = docs("bench.md");

    GeneratedFiles.verify(
        page,
        GeneratedFiles.update(
            Files.readString(page),
            Map.of(
                "cql",
                table(CqlOptions.ALL),
                "varve",
                table(VarveOptions.ALL),
                "varve-kv",
                table(VarveOptions.KEY_VALUE),
                "noop",
                table(NoopOptions.ALL),
                "serverload",
                table(ServerLoadOptions.ALL))));
  }

  @Test
  void the_dynamodb_page_shows_its_properties() throws IOException {
    Path page = docs("bench-dynamodb.md");

    GeneratedFiles.verify(
        page,
        GeneratedFiles.update(
            Files.readString(page), Map.of("dynamodb", table(DynamoDbOptions.ALL))));
  }

  @Test
  void a_bad_property_is_refused_naming_it_its_value_and_what_was_expected() {
    Properties p = new Properties();
    p.setProperty("cassandra.readconsistencylevel", "quorom");
    p.setProperty("recordcount", "not a binding property");

    assertThatThrownBy(() -> BindingOptions.read(CqlOptions.ALL, p))
        .isInstanceOf(DBException.class)
        .hasMessageStartingWith(
            "cassandra.readconsistencylevel: quorom (expected: one of ANY, ONE, TWO,");
    p.setProperty("cassandra.readconsistencylevel", "local_one");
    assertThat(readUnchecked(CqlOptions.ALL, p).get(CqlOptions.READ_CONSISTENCY))
        .isEqualTo("LOCAL_ONE");
    p.setProperty("varve.url", "127.0.0.1:8080");
    assertThatThrownBy(() -> BindingOptions.read(VarveOptions.ALL, p))
        .hasMessage(
            "varve.url: 127.0.0.1:8080 (expected: a URL with scheme http or https and a host, like"
                + " http://127.0.0.1:8000)");
    p.setProperty("varve.token", "  ");
    p.setProperty("varve.url", "https://varve.internal:8443");
    assertThat(readUnchecked(VarveOptions.ALL, p).optional(VarveOptions.TOKEN))
        .as("blank is unset")
        .isEmpty();
  }

  private static OptionValues readUnchecked(Options options, Properties p) {
    try {
      return BindingOptions.read(options, p);
    } catch (DBException e) {
      throw new AssertionError(e);
    }
  }

  private static String table(Options options) {
    return OptionsTable.render(options, "Property", OptionValues.defaults(options));
  }

  private static Path docs(String page) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("docs").resolve(page);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("docs/" + page + " not found above " + Path.of("").toAbsolutePath());
  }
}
