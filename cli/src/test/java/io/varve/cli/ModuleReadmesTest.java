package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each module's README says what the module may depend on, and docs/development.md's layout table
 * says it again; the poms say what it does depend on (and the build's dependency analysis keeps the
 * poms to what the code uses). The project modules a README's "May depend on" names, in code spans
 * ({@code `core`}, {@code `io.varve:varve-command`}), are exactly those its pom (or, for local/,
 * its modules' poms) depends on: a test dependency in a sentence about tests, none in a sentence
 * that says "Not on" or "Never on". The layout table names the dependencies outside tests.
 */
class ModuleReadmesTest {

  /**
   * Modules whose README names its dependencies in words rather than by module ("every product
   * module", "the CLI"): checked by the layout table of docs/development.md only.
   */
  private static final Set<String> IN_WORDS = Set.of("perf");

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern DEPENDENCY =
      Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

  /** A project dependency of a module: the module depended on and whether only its tests do. */
  record Dependency(String module, boolean testOnly) {}

  private static Path root;

  /** The modules of the root pom, by name (their directory). */
  private static final Map<String, List<Path>> POMS = new TreeMap<>();

  /** Each artifact of the project to the module that builds it. */
  private static final Map<String, String> ARTIFACTS = new TreeMap<>();

  @BeforeAll
  static void readPoms() throws IOException {
    root = root();
    for (String module : children(root.resolve("pom.xml"))) {
      List<Path> poms = new ArrayList<>(List.of(root.resolve(module).resolve("pom.xml")));
      for (String sub : children(poms.get(0))) {
        poms.add(root.resolve(module).resolve(sub).resolve("pom.xml"));
      }
      POMS.put(module, poms);
      for (Path pom : poms) {
        ARTIFACTS.put(artifactId(Files.readString(pom)), module);
      }
    }
  }

  @Test
  void every_module_has_a_readme_that_says_what_it_may_depend_on() throws IOException {
    assertThat(POMS.keySet()).as("modules of the root pom").contains("server", "spark", "local");
    for (String module : POMS.keySet()) {
      Path readme = root.resolve(module).resolve("README.md");
      assertThat(readme).as("the README of " + module).isRegularFile();
      assertThat(Files.readString(readme))
          .as(module + "/README.md: a title, then what the module is for")
          .startsWith("# ");
      assertThat(section(readme))
          .as(module + "/README.md: a \"May depend on\" paragraph or section")
          .isPresent();
    }
  }

  @Test
  void each_readme_names_the_project_modules_its_pom_depends_on() throws IOException {
    List<String> problems = new ArrayList<>();
    for (String module : POMS.keySet()) {
      if (IN_WORDS.contains(module)) {
        continue;
      }
      String readme = module + "/README.md";
      String pom = POMS.get(module).size() == 1 ? module + "/pom.xml" : module + "/*/pom.xml";
      Map<String, Dependency> dependencies = dependencies(module);
      Set<String> named = new TreeSet<>();
      Set<String> namedForTests = new TreeSet<>();
      for (String sentence : sentences(section(root.resolve(readme)).orElse(""))) {
        Set<String> names = modules(sentence, module);
        if (negative(sentence)) {
          for (String name : names) {
            if (dependencies.containsKey(name)) {
              problems.add(readme + " says it does not depend on `" + name + "`; " + pom + " does");
            }
          }
          continue;
        }
        named.addAll(names);
        if (sentence.toLowerCase(Locale.ROOT).contains("test")) {
          namedForTests.addAll(names);
        }
      }
      for (String name : named) {
        if (!dependencies.containsKey(name)) {
          problems.add(readme + " names `" + name + "`, which " + pom + " does not depend on");
        }
      }
      for (Dependency d : dependencies.values()) {
        if (!named.contains(d.module())) {
          problems.add(
              pom
                  + " depends on "
                  + d.module()
                  + (d.testOnly() ? " (test scope)" : "")
                  + ", which the \"May depend on\" of "
                  + readme
                  + " does not name");
        } else if (d.testOnly() && !namedForTests.contains(d.module())) {
          problems.add(
              pom
                  + " depends on "
                  + d.module()
                  + " in tests only; "
                  + readme
                  + " names it in no sentence about tests");
        }
      }
    }

    assertThat(problems).isEmpty();
  }

  @Test
  void the_layout_table_names_the_modules_each_module_depends_on_outside_tests()
      throws IOException {
    Map<String, String> cells = new LinkedHashMap<>();
    Pattern row = Pattern.compile("^\\| `([\\w-]+)/` \\|[^|]*\\|(.*)\\|$", Pattern.MULTILINE);
    Matcher m = row.matcher(Files.readString(root.resolve("docs/development.md")));
    while (m.find()) {
      cells.put(m.group(1), m.group(2));
    }

    assertThat(cells.keySet())
        .as("rows of the layout table of docs/development.md")
        .containsExactlyInAnyOrderElementsOf(POMS.keySet());
    List<String> problems = new ArrayList<>();
    cells.forEach(
        (module, cell) -> {
          Set<String> expected = new TreeSet<>();
          dependencies(module).values().stream()
              .filter(d -> !d.testOnly())
              .forEach(d -> expected.add(d.module()));
          Set<String> named = modules(cell, module);
          if (!named.equals(expected)) {
            problems.add(
                "docs/development.md, row `"
                    + module
                    + "/`: names "
                    + named
                    + ", its pom depends on "
                    + expected
                    + " outside tests");
          }
        });

    assertThat(problems).isEmpty();
  }

  @Test
  void the_check_reads_names_in_code_spans_only_and_sentences_that_refuse() {
    assertThat(modules("May depend on: `core`, `io.varve:varve-command`, the driver (core).", "x"))
        .containsExactly("command", "core");
    assertThat(modules("`varve-reshaper` and `local`; `x` itself: `varve-x`", "local"))
        .containsExactly("spark");
    assertThat(negative("Not on `api`, `opensearch` or `server`.")).isTrue();
    assertThat(negative("Never on `perf`: no benchmark harness ships in this jar.")).isTrue();
    assertThat(negative("Integration tests start a server on `local`.")).isFalse();
  }

  @Test
  void a_readme_that_lists_its_packages_lists_each_of_them() throws IOException {
    Pattern listed = Pattern.compile("^(?:- |\\| )`([a-z][a-z0-9.]*)`", Pattern.MULTILINE);
    List<String> problems = new ArrayList<>();
    int lists = 0;
    for (String module : POMS.keySet()) {
      Path sources = root.resolve(module).resolve("src/main/java/io/varve");
      if (!Files.isDirectory(sources)) {
        continue;
      }
      List<Path> bases;
      try (Stream<Path> dirs = Files.list(sources)) {
        bases = dirs.filter(Files::isDirectory).toList();
      }
      assertThat(bases).as(module + ": one package under io.varve").hasSize(1);
      String base = "io.varve." + bases.get(0).getFileName();
      Set<String> packages = new TreeSet<>();
      try (Stream<Path> dirs = Files.list(bases.get(0))) {
        dirs.filter(Files::isDirectory).forEach(d -> packages.add(d.getFileName().toString()));
      }
      Set<String> named = new TreeSet<>();
      Matcher m = listed.matcher(Files.readString(root.resolve(module).resolve("README.md")));
      while (m.find()) {
        named.add(m.group(1).replaceFirst("^" + Pattern.quote(base) + "\\.?", ""));
      }
      named.remove("");
      if (named.stream().noneMatch(packages::contains)) {
        continue;
      }
      lists++;
      for (String p : packages) {
        if (!named.contains(p)) {
          problems.add(
              module + "/README.md lists the packages of " + base + " but not `" + p + "`");
        }
      }
      for (String n : named) {
        if (!packages.contains(n)) {
          problems.add(module + "/README.md lists `" + n + "`, which is no package of " + base);
        }
      }
    }

    assertThat(lists).as("READMEs with a list of packages").isGreaterThanOrEqualTo(6);
    assertThat(problems).isEmpty();
  }

  /** The project modules named in code spans of {@code text}, the module itself left out. */
  private static Set<String> modules(String text, String self) {
    Set<String> names = new TreeSet<>();
    Matcher m = CODE.matcher(text);
    while (m.find()) {
      String name = m.group(1).replaceFirst("^io\\.varve:", "");
      String module = ARTIFACTS.getOrDefault(name, POMS.containsKey(name) ? name : null);
      if (module != null && !module.equals(self)) {
        names.add(module);
      }
    }
    return names;
  }

  private static boolean negative(String sentence) {
    return sentence.matches("(?s)^(?:Not|Never|No other|Nothing)\\b.*");
  }

  /** The project modules a module's poms depend on, its own left out. */
  private static Map<String, Dependency> dependencies(String module) {
    Map<String, Dependency> out = new TreeMap<>();
    for (Path pom : POMS.get(module)) {
      String text;
      try {
        text = Files.readString(pom);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      text =
          text.replaceAll("(?s)<!--.*?-->", "")
              .replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", "")
              .replaceAll("(?s)<build>.*?</build>", "")
              .replaceAll("(?s)<profiles>.*?</profiles>", "");
      Matcher d = DEPENDENCY.matcher(text);
      while (d.find()) {
        if (!tag(d.group(1), "groupId").equals("io.varve")) {
          continue;
        }
        String other = ARTIFACTS.get(tag(d.group(1), "artifactId"));
        assertThat(other).as(pom + ": a module of the project builds " + d.group(1)).isNotNull();
        if (other.equals(module)) {
          continue;
        }
        boolean testOnly = tag(d.group(1), "scope").equals("test");
        Dependency known = out.get(other);
        out.put(other, new Dependency(other, testOnly && (known == null || known.testOnly())));
      }
    }
    return out;
  }

  /**
   * The "May depend on" of a README: the paragraph that starts with it, or the section under a
   * heading that says it.
   */
  private static Optional<String> section(Path readme) throws IOException {
    List<String> lines = Files.readAllLines(readme);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      boolean heading = line.startsWith("#");
      if (!(heading && line.toLowerCase(Locale.ROOT).contains("may depend on"))
          && !line.startsWith("May depend on")) {
        continue;
      }
      StringBuilder text = new StringBuilder(heading ? "" : line + "\n");
      for (int j = i + 1; j < lines.size(); j++) {
        String next = lines.get(j);
        if (heading ? next.startsWith("#") : next.isBlank()) {
          break;
        }
        text.append(next).append('\n');
      }
      return Optional.of(text.toString());
    }
    return Optional.empty();
  }

  /** The sentences of a text: cut after a full stop followed by a space or a line break. */
  private static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (String sentence : text.replace('\n', ' ').split("(?<=\\.)\\s+")) {
      if (!sentence.isBlank()) {
        out.add(sentence.strip());
      }
    }
    return out;
  }

  /** The modules a pom lists, in order. */
  private static List<String> children(Path pom) throws IOException {
    Matcher block = Pattern.compile("(?s)<modules>(.*?)</modules>").matcher(Files.readString(pom));
    List<String> modules = new ArrayList<>();
    if (block.find()) {
      Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(block.group(1));
      while (module.find()) {
        modules.add(module.group(1).strip());
      }
    }
    return modules;
  }

  /** The pom's own artifactId: the first one outside its parent. */
  private static String artifactId(String pom) {
    return tag(
        pom.replaceAll("(?s)<!--.*?-->", "").replaceAll("(?s)<parent>.*?</parent>", ""),
        "artifactId");
  }

  private static String tag(String xml, String name) {
    Matcher m = Pattern.compile("<" + name + ">\\s*([^<]+?)\\s*</" + name + ">").matcher(xml);
    return m.find() ? m.group(1) : "";
  }

  private static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("docs")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new AssertionError("no docs/ above " + Path.of("").toAbsolutePath());
  }
}
