package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs name limits and other parts of the code by class and member ({@code
 * CqlEventStore.MAX_READS_WAITING}, {@code ConfigFile.OPTIONS}, {@code Placement.replicas}): each
 * such name is a class of the project's sources that declares that member, and a number constant
 * (read from the class when it is on this module's classpath) has its value written in the table
 * row or paragraph that names it (16384, 100,000, 64 MiB).
 */
class CodeNamesDocsTest {

  private static final Pattern NAME =
      Pattern.compile("([A-Z][A-Za-z0-9]*)\\.([A-Za-z_][A-Za-z0-9_]*)(?:\\(\\))?");

  /** Classes the docs name that are neither the project's nor the JDK's: Cassandra's JMX bean. */
  private static final Set<String> OTHERS = Set.of("StorageService");

  /** The JDK's packages whose classes the docs may name: {@code Instant.now()}. */
  private static final List<String> JDK = List.of("java.lang.", "java.util.", "java.time.");

  @Test
  void every_class_and_member_the_docs_name_is_declared() {
    Map<String, List<Path>> sources = sources();
    List<String> checked = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (DocPages.Span span : DocPages.spans()) {
      Matcher m = NAME.matcher(span.text());
      if (!m.matches() || OTHERS.contains(m.group(1))) {
        continue;
      }
      checked.add(span.text());
      List<Path> files = sources.getOrDefault(m.group(1), List.of());
      Optional<Class<?>> compiled = files.isEmpty() ? compiled(m.group(1)) : Optional.empty();
      if (compiled.isPresent()) {
        if (!hasMember(compiled.get(), m.group(2))) {
          problems.add(
              span.where()
                  + ": `"
                  + span.text()
                  + "`: "
                  + compiled.get()
                  + " has no "
                  + m.group(2));
        }
      } else if (files.isEmpty()) {
        problems.add(
            span.where()
                + ": `"
                + span.text()
                + "`: no class "
                + m.group(1)
                + " in the sources, the protos' messages or the JDK");
      } else if (files.stream().noneMatch(f -> declares(f, m.group(2)))) {
        problems.add(
            span.where()
                + ": `"
                + span.text()
                + "`: "
                + DocPages.root().relativize(files.get(0))
                + " declares no "
                + m.group(2));
      }
    }

    assertThat(checked)
        .as("names found in the docs")
        .contains("CqlEventStore.MAX_READS_WAITING", "ProtoJson.MAX_NESTING_DEPTH");
    assertThat(problems).isEmpty();
  }

  @Test
  void the_docs_give_the_value_of_each_number_constant_they_name() throws Exception {
    Map<String, List<Path>> sources = sources();
    Map<String, List<DocPages.Line>> pages = new HashMap<>();
    for (DocPages.Line line : DocPages.lines()) {
      pages.computeIfAbsent(line.page(), p -> new ArrayList<>()).add(line);
    }
    List<String> checked = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (DocPages.Span span : DocPages.spans()) {
      Matcher m = NAME.matcher(span.text());
      if (!m.matches() || !m.group(2).matches("[A-Z][A-Z0-9_]*")) {
        continue;
      }
      for (Path file : sources.getOrDefault(m.group(1), List.of())) {
        Optional<Object> value = constant(file, m.group(2));
        if (value.isEmpty() || DocPages.figures(value.get()).isEmpty()) {
          continue;
        }
        checked.add(span.text());
        String context = context(pages.get(span.page()), span.line());
        if (!DocPages.showsFigure(context, DocPages.figures(value.get()))) {
          problems.add(
              span.where()
                  + ": `"
                  + span.text()
                  + "` is "
                  + value.get()
                  + ", which its row or paragraph does not show");
        }
      }
    }

    assertThat(checked)
        .as("constants found in the docs")
        .contains("DataPlaneHandler.MAX_PARTITIONS_PER_READ", "ScanRead.MAX_ROWS_PER_PAGE");
    assertThat(problems).isEmpty();
  }

  /** A class without a source of the project: a message generated from the protos, or the JDK's. */
  private static Optional<Class<?>> compiled(String name) {
    List<String> packages = new ArrayList<>(JDK);
    Pattern javaPackage = Pattern.compile("option java_package = \"([\\w.]+)\";");
    DocPages.tree().stream()
        .filter(p -> p.toString().endsWith(".proto") && p.toString().contains("/src/main/proto/"))
        .map(CodeNamesDocsTest::read)
        .map(javaPackage::matcher)
        .filter(Matcher::find)
        .forEach(m -> packages.add(m.group(1) + "."));
    for (String pkg : packages) {
      try {
        return Optional.of(
            Class.forName(pkg + name, false, CodeNamesDocsTest.class.getClassLoader()));
      } catch (ClassNotFoundException e) {
        // not in this package
      }
    }
    return Optional.empty();
  }

  private static boolean hasMember(Class<?> type, String member) {
    return Stream.of(type.getMethods()).anyMatch(m -> m.getName().equals(member))
        || Stream.of(type.getFields()).anyMatch(f -> f.getName().equals(member));
  }

  /** The table row of the line, or the paragraph around it. */
  private static String context(List<DocPages.Line> lines, int number) {
    int at = 0;
    while (lines.get(at).number() != number) {
      at++;
    }
    if (lines.get(at).text().startsWith("|")) {
      return lines.get(at).text();
    }
    int from = at;
    while (from > 0
        && !lines.get(from - 1).text().isBlank()
        && lines.get(from - 1).number() == lines.get(from).number() - 1) {
      from--;
    }
    int to = at;
    while (to < lines.size() - 1
        && !lines.get(to + 1).text().isBlank()
        && lines.get(to + 1).number() == lines.get(to).number() + 1) {
      to++;
    }
    StringBuilder paragraph = new StringBuilder();
    lines.subList(from, to + 1).forEach(l -> paragraph.append(l.text()).append(' '));
    return paragraph.toString();
  }

  /**
   * A declaration of {@code member} in the source: a field, a method, a nested type or a constant.
   */
  private static boolean declares(Path file, String member) {
    String text = read(file);
    String name = Pattern.quote(member);
    return Pattern.compile(
            "(?:class|interface|enum|record)\\s+"
                + name
                + "\\b|[\\w>\\]]\\s+"
                + name
                + "\\s*[=(;]|^\\s*"
                + name
                + "\\s*(?:[(,;{]|$)",
            Pattern.MULTILINE)
        .matcher(text)
        .find();
  }

  /** The value of a static number field, when its class is on this module's classpath. */
  private static Optional<Object> constant(Path file, String member) throws Exception {
    String path = file.toString().replace('\\', '/');
    int at = path.indexOf("/java/");
    String className = path.substring(at + "/java/".length(), path.length() - ".java".length());
    Class<?> type;
    try {
      type =
          Class.forName(
              className.replace('/', '.'), false, CodeNamesDocsTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return Optional.empty();
    }
    Field field;
    try {
      field = type.getDeclaredField(member);
    } catch (NoSuchFieldException e) {
      return Optional.empty();
    }
    if (!Modifier.isStatic(field.getModifiers())) {
      return Optional.empty();
    }
    field.setAccessible(true);
    return Optional.ofNullable(field.get(null));
  }

  /** The project's Java sources by class name: main and test, every module. */
  private static Map<String, List<Path>> sources() {
    Map<String, List<Path>> byName = new HashMap<>();
    Path root = DocPages.root();
    for (Path p : DocPages.tree()) {
      String relative = "/" + root.relativize(p).toString().replace('\\', '/');
      if (relative.endsWith(".java")
          && (relative.contains("/src/main/java/") || relative.contains("/src/test/java/"))) {
        byName
            .computeIfAbsent(
                p.getFileName().toString().replace(".java", ""), n -> new ArrayList<>())
            .add(p);
      }
    }
    return byName;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
