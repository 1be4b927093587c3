package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.core.error.InvalidFieldException;
import io.varve.options.GeneratedFiles;
import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.OptionsTable;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the option declarations ({@link ConfigFile#OPTIONS}), the parser, the bundled {@code
 * varve-reference.yaml} and docs/server-configuration.md in step: the reference file and the docs
 * tables are what the declarations generate (run with {@code -Dvarve.generate=true} to write them),
 * the reference loads to the defaults, and it lists exactly the keys the parser knows (found by
 * asking the parser itself, not the declarations). Every YAML example of the page is read by the
 * declarations: its keys declared, its values valid.
 */
class ReferenceConfigTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** A commented-out setting: "#key: value" at the key's own indentation, no space after '#'. */
  private static final Pattern COMMENTED_KEY =
      Pattern.compile("^(\\s*)#([A-Za-z][A-Za-z0-9_]*:.*)$");

  private static final String PROBE = "zz_probe";

  private static Path reference;
  private static String referenceText;

  /** Every key path the parser knows, sections included, mapped to whether it is a section. */
  private static Map<String, Boolean> known;

  @BeforeAll
  static void load() throws IOException, URISyntaxException {
    reference = Path.of(ReferenceConfigTest.class.getResource("/varve-reference.yaml").toURI());
    referenceText = Files.readString(reference);
    known = new java.util.TreeMap<>();
    discover(List.of());
  }

  @Test
  void reference_file_loads_to_the_defaults() {
    assertThat(ServerSettings.load(reference)).isEqualTo(ServerSettings.defaults());
  }

  @Test
  void commented_out_settings_load_once_enabled(@TempDir Path dir) throws IOException {
    Path enabled = dir.resolve("enabled.yaml");
    Files.writeString(enabled, enabled(referenceText));

    ServerSettings settings = ServerSettings.load(enabled);

    assertThat(settings.tls())
        .hasValueSatisfying(
            tls -> {
              assertThat(tls.certificateChain()).hasFileName("server-chain.pem");
              assertThat(tls.privateKey()).hasFileName("server-key.pem");
            });
    assertThat(settings.cassandra().username()).contains("varve");
    assertThat(settings.cassandra().password()).isPresent();
    assertThat(settings.cassandra().tls())
        .hasValueSatisfying(
            tls -> {
              assertThat(tls.truststore()).hasFileName("truststore.p12");
              assertThat(tls.keystore())
                  .hasValueSatisfying(k -> assertThat(k).hasFileName("keystore.p12"));
              assertThat(tls.keystorePassword()).isPresent();
              assertThat(tls.hostnameValidation()).isTrue();
            });
  }

  @Test
  void reference_lists_exactly_the_keys_the_server_knows() throws IOException {
    TreeSet<String> inFile = new TreeSet<>();
    collect(YAML.readTree(enabled(referenceText)), "", inFile);

    assertThat(inFile).containsExactlyElementsOf(known.keySet());
  }

  @Test
  void discovery_finds_sections_and_leaves() {
    // guards the probing itself: were it to find nothing, the other tests would prove nothing
    assertThat(known)
        .containsEntry("server.tls", true)
        .containsEntry("timeseries.limits", true)
        .containsEntry("cassandra.tls.truststore", false)
        .containsEntry("timeseries.limits.futureLimit", false)
        .containsEntry("cassandra.replication", false);
    assertThat(known).hasSizeGreaterThan(40);
  }

  @Test
  void the_reference_file_is_generated_from_the_declarations() throws IOException {
    GeneratedFiles.verify(
        Path.of("src/main/resources/varve-reference.yaml"), ConfigFile.reference());
  }

  @Test
  void the_docs_tables_are_generated_from_the_declarations() throws IOException {
    Path page = docs("server-configuration.md");
    Options all = ConfigFile.OPTIONS;
    OptionValues defaults = OptionValues.defaults(all);
    Map<String, String> tables = new java.util.LinkedHashMap<>();
    for (String section :
        List.of(
            "server",
            "cassandra",
            "opensearch",
            "timeseries.limits",
            "timeseries.search",
            "kv.limits",
            "kv.chunks",
            "kv.cache")) {
      tables.put(section, OptionsTable.render(all.under(section), "Key", defaults));
    }
    tables.put(
        "timeseries",
        OptionsTable.render(
            all.under("timeseries").without("timeseries.limits").without("timeseries.search"),
            "Key",
            defaults));
    tables.put(
        "server.auth.tokens",
        OptionsTable.render(TokenOptions.ALL, "Key", OptionValues.defaults(TokenOptions.ALL)));

    GeneratedFiles.verify(page, GeneratedFiles.update(Files.readString(page), tables));
  }

  @Test
  void every_yaml_example_of_the_configuration_page_has_declared_keys_and_valid_values()
      throws IOException {
    List<String> lines = Files.readAllLines(docs("server-configuration.md"));
    List<String> problems = new ArrayList<>();
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
        OptionValues.fromTree(
            ConfigFile.OPTIONS, "", YAML.readValue(yaml.toString(), Object.class));
      } catch (OptionException e) {
        problems.add("docs/server-configuration.md:" + start + ": " + e.getMessage());
      }
    }

    assertThat(examples).as("YAML examples of docs/server-configuration.md").isGreaterThan(5);
    assertThat(problems).isEmpty();
  }

  @Test
  void every_key_the_parser_knows_is_declared() {
    List<String> declared = new ArrayList<>();
    ConfigFile.OPTIONS.options().forEach(o -> declared.add(o.key()));
    ConfigFile.OPTIONS.sections().forEach(s -> declared.add(s.path()));

    assertThat(declared).containsExactlyInAnyOrderElementsOf(known.keySet());
  }

  /** The reference with its commented-out settings enabled. */
  static String enabled(String text) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      Matcher m = COMMENTED_KEY.matcher(line);
      out.append(m.matches() ? m.group(1) + m.group(2) : line).append('\n');
    }
    return out.toString();
  }

  /**
   * Finds the keys of the section at {@code path} by giving it an unknown key and reading the list
   * of expected keys from the error; a key is a section when it refuses an unknown key too.
   */
  private static void discover(List<String> path) {
    String prefix = path.isEmpty() ? "" : String.join(".", path) + ".";
    InvalidFieldException e = probe(path);
    assertThat(e).as("section %s refuses an unknown key", path).isNotNull();
    assertThat(e.field()).isEqualTo(prefix + PROBE);
    String message = e.getMessage();
    String list =
        message.substring(
            message.indexOf("one of: ") + "one of: ".length(), message.lastIndexOf(')'));
    for (String key : list.split(", ")) {
      List<String> child = new ArrayList<>(path);
      child.add(key);
      InvalidFieldException inner = probe(child);
      boolean section = inner != null && inner.field().equals(prefix + key + "." + PROBE);
      known.put(prefix + key, section);
      if (section) {
        discover(child);
      }
    }
  }

  private static InvalidFieldException probe(List<String> path) {
    ObjectNode root = YAML.createObjectNode();
    ObjectNode node = root;
    for (String key : path) {
      node = node.putObject(key);
    }
    node.put(PROBE, 1);
    return catchThrowableOfType(InvalidFieldException.class, () -> ServerSettings.parse(root));
  }

  private static void collect(JsonNode node, String prefix, TreeSet<String> out) {
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      String path = prefix + field.getKey();
      out.add(path);
      if (field.getValue().isObject() && !Boolean.FALSE.equals(known.get(path))) {
        collect(field.getValue(), path + ".", out);
      }
    }
  }

  /** A page of the repository's docs directory (tests run in the module's directory). */
  static Path docs(String page) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("docs").resolve(page);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("docs/" + page + " not found above " + Path.of("").toAbsolutePath());
  }
}
