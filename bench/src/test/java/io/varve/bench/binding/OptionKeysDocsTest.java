package io.varve.bench.binding;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.binding.cql.CqlOptions;
import io.varve.bench.binding.dynamodb.DynamoDbOptions;
import io.varve.bench.binding.varve.VarveOptions;
import io.varve.bench.load.ServerLoadOptions;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.server.config.ConfigFile;
import io.varve.server.config.TokenOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every server option and bench binding property the docs name in a code span ({@code
 * timeseries.limits.maxPageSize}, {@code server.admission.readBytes}, {@code
 * cassandra.readconsistencylevel}), on any page (docs/*.md, README.md and the modules' READMEs), is
 * one the server's registry ({@link ConfigFile#OPTIONS}) or a binding's ({@link CqlOptions}, {@link
 * VarveOptions}, {@link DynamoDbOptions}) declares. The two registries share the {@code cassandra.}
 * prefix, so one test that sees both checks them: the bench's tests have the server on their
 * classpath. A span under those prefixes that is no key must be a file ({@code cassandra.yaml}), a
 * name of the protos ({@code varve.kv.v1.KeyValue}) or a property the build or the code reads
 * ({@code cassandra.version}, {@code varve.test.cassandra}).
 */
class OptionKeysDocsTest {

  /** A code span that is a dotted name, or a setting {@code key: value}; group 1 is the name. */
  private static final Pattern KEY =
      Pattern.compile(
          "([a-z][A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_*<>-]+|\\[[^\\]]*\\])*\\.[A-Za-z0-9_*<>-]+)(?::\\s*\\S+)?");

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  private static final Pattern FILE =
      Pattern.compile("\\.(ya?ml|json|md|proto|log|pid|lock|jar|xml|properties|p12|pem|txt|sh)$");

  private static final Options SERVER = ConfigFile.OPTIONS;
  private static final List<Options> BINDINGS =
      List.of(
          CqlOptions.ALL,
          VarveOptions.ALL,
          VarveOptions.KEY_VALUE,
          DynamoDbOptions.ALL,
          NoopOptions.ALL,
          ServerLoadOptions.ALL);

  private static Path root;

  /** Keys, aliases and sections of both registries. */
  private static final Set<String> KEYS = new TreeSet<>();

  /** The first parts of their dotted keys: server, cassandra, kv, dynamodb, varve, ... */
  private static final Set<String> PREFIXES = new TreeSet<>();

  /** System and build properties the code or a pom reads. */
  private static final Set<String> OTHER_NAMES = new TreeSet<>();

  /**
   * The protos' packages ({@code varve.kv.v1}): a name under one of them, or under another version
   * of it ({@code varve.timeseries.v2}), names the contract.
   */
  private static final Set<String> PROTO_PACKAGES = new TreeSet<>();

  @BeforeAll
  static void readRegistries() throws IOException {
    root = root();
    SERVER.sections().forEach(s -> KEYS.add(s.path()));
    for (Options options : Stream.concat(Stream.of(SERVER), BINDINGS.stream()).toList()) {
      for (Option<?> option : options.options()) {
        KEYS.add(option.key());
        KEYS.addAll(option.aliases());
      }
    }
    KEYS.stream().filter(k -> k.contains(".")).forEach(k -> PREFIXES.add(k.split("\\.")[0]));
    readOtherNames();
  }

  @Test
  void every_server_option_and_binding_property_the_docs_name_is_declared() throws IOException {
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
          Matcher key = KEY.matcher(span.group(1));
          if (!key.matches() || !PREFIXES.contains(key.group(1).split("[.\\[]")[0])) {
            continue;
          }
          checked.add(key.group(1));
          if (!known(key.group(1))) {
            unknown.add(root.relativize(page) + ":" + (i + 1) + ": `" + key.group(1) + "`");
          }
        }
      }
    }

    assertThat(checked)
        .as("keys found in the docs")
        .contains("timeseries.limits.maxPageSize", "server.admission.readBytes", "varve.url");
    assertThat(unknown)
        .as(
            "names the docs give as keys that neither the server's registry (ConfigFile.OPTIONS)"
                + " nor a binding's (CqlOptions, VarveOptions, DynamoDbOptions) declares, and that"
                + " are no file, proto name or property the build reads")
        .isEmpty();
  }

  /**
   * A figure written right after a server key, as its default: {@code `kv.chunks.threshold` (1
   * MiB)}, {@code `timeseries.limits.futureLimit`, 1 hour}, {@code (default 64 MiB)}; not a range
   * ({@code (1..32)}).
   */
  private static final Pattern BESIDE =
      Pattern.compile(
          "`([a-z][\\w.]*)`(?:, | \\((?:default )?)(\\d[\\d,]*(?:\\.\\d+)?)"
              + "(?!\\.\\.)(?: ?(KiB|MiB|GiB|ms|s|minutes?|hours?|days?)\\b)?");

  @Test
  void a_figure_written_beside_a_server_key_is_its_declared_default() throws IOException {
    OptionValues defaults = OptionValues.defaults(SERVER);
    List<String> checked = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (Path page : pages()) {
      List<String> lines = Files.readAllLines(page);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = BESIDE.matcher(lines.get(i));
        while (m.find()) {
          Optional<Option<?>> option = SERVER.option(m.group(1));
          if (option.isEmpty() || !option.get().hasDefault()) {
            continue;
          }
          Object declared = defaults.get(option.get());
          Object shown = figure(m.group(2), m.group(3));
          checked.add(m.group(1));
          if (!shown.equals(declared instanceof Number n ? (Object) n.longValue() : declared)) {
            wrong.add(
                root.relativize(page)
                    + ":"
                    + (i + 1)
                    + ": `"
                    + m.group(1)
                    + "` shown as "
                    + m.group(2)
                    + (m.group(3) == null ? "" : " " + m.group(3))
                    + ", declared default "
                    + declared);
          }
        }
      }
    }

    assertThat(checked).as("defaults beside keys").contains("kv.chunks.threshold");
    assertThat(wrong).isEmpty();
  }

  /** A figure as written, with its unit: a count or a size as a long, a duration. */
  private static Object figure(String number, String unit) {
    double n = Double.parseDouble(number.replace(",", ""));
    if (unit == null) {
      return (long) n;
    }
    return switch (unit) {
      case "KiB" -> (long) (n * 1024);
      case "MiB" -> (long) (n * 1024 * 1024);
      case "GiB" -> (long) (n * 1024 * 1024 * 1024);
      case "ms" -> Duration.ofMillis((long) n);
      case "s" -> Duration.ofMillis((long) (n * 1000));
      case "minute", "minutes" -> Duration.ofMinutes((long) n);
      case "hour", "hours" -> Duration.ofHours((long) n);
      default -> Duration.ofDays((long) n);
    };
  }

  @Test
  void the_check_refuses_a_key_no_registry_declares() {
    assertThat(known("kv.limits.maxFetchBytes")).isTrue();
    assertThat(known("cassandra.readconsistencylevel")).isTrue();
    assertThat(known("cassandra.replication.class")).as("a key of a mapping").isTrue();
    assertThat(known("timeseries.limits.*")).isTrue();
    assertThat(known("cassandra.yaml")).isTrue();
    assertThat(known("varve.kv.v1.KeyValue")).isTrue();
    assertThat(known("varve.timeseries.v2")).as("a later version of a proto package").isTrue();
    assertThat(known("varve.test.cassandra")).isTrue();
    assertThat(known("timeseries.limits.maxPageSizes")).isFalse();
    assertThat(known("server.admission.readbytes")).isFalse();
    assertThat(known("kv.limits.maxRequestBytes")).isFalse();
    assertThat(known("varve.urls")).isFalse();
  }

  /** Whether a name the docs give is a key, or another name they may give under a key prefix. */
  private static boolean known(String name) {
    String key = name.replaceAll("\\[[^\\]]*\\]", "");
    if (KEYS.contains(key) || FILE.matcher(key).find()) {
      return true;
    }
    if (key.endsWith(".*")) {
      String prefix = key.substring(0, key.length() - 1);
      return KEYS.stream().anyMatch(k -> k.startsWith(prefix));
    }
    for (Option<?> option : SERVER.options()) {
      if (key.startsWith(option.key() + ".")) {
        String rest = key.substring(option.key().length() + 1);
        return option.typeDoc().equals("mapping")
            || (option.key().equals("server.auth.tokens")
                && TokenOptions.ALL.option(rest).isPresent());
      }
    }
    return OTHER_NAMES.stream().anyMatch(n -> key.equals(n) || key.startsWith(n + "."))
        || PROTO_PACKAGES.stream()
            .anyMatch(
                p ->
                    key.matches(
                        Pattern.quote(p.replaceAll("\\d+$", "")) + "\\d+(\\.[A-Za-z]\\w*)*"));
  }

  /**
   * The properties the build and the code read (a pom's {@code <cassandra.version>}, a {@code
   * System.getProperty}, a {@code *PROPERTY} constant, a {@code -Dname=} on a command line, a
   * figure a benchmark prints, {@code "kv.capacity.ratio=%.3f"}) and the packages of the protos
   * ({@code varve.kv.v1}).
   */
  private static void readOtherNames() throws IOException {
    Pattern pomProperty = Pattern.compile("<([a-z][\\w-]*(?:\\.[\\w-]+)+)>");
    Pattern read =
        Pattern.compile(
            "(?:getProperty|getBoolean|getInteger|getLong)\\(\\s*\"([\\w.-]+)\""
                + "|[A-Z_]*PROPERTY[A-Z_]*\\s*=\\s*\"(?:-D)?([\\w.-]+?)=?\""
                + "|-D([a-z][\\w-]*(?:\\.[\\w-]+)+)="
                // a figure a benchmark prints as key=value
                + "|\"([a-z][\\w-]*(?:\\.[\\w-]+)+)=%");
    Pattern protoPackage = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    {
      for (Path file : tree().stream().filter(OptionKeysDocsTest::source).toList()) {
        String text = Files.readString(file);
        String name = file.getFileName().toString();
        Matcher m =
            (name.equals("pom.xml") ? pomProperty : name.endsWith(".proto") ? protoPackage : read)
                .matcher(text);
        while (m.find()) {
          for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null) {
              (name.endsWith(".proto") ? PROTO_PACKAGES : OTHER_NAMES).add(m.group(g));
            }
          }
        }
      }
    }
  }

  /** The poms, Java sources, protos and scripts of the tree. */
  private static boolean source(Path file) {
    Path relative = root.relativize(file);
    String name = file.getFileName().toString();
    return name.equals("pom.xml")
        || name.endsWith(".java")
        || name.endsWith(".proto")
        || name.equals("varve")
        || relative.startsWith(".ci");
  }

  /** docs/*.md, README.md and the READMEs of the modules (CHANGELOG.md keeps past releases). */
  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    pages.add(root.resolve("README.md"));
    tree().stream()
        .filter(p -> p.getFileName().toString().equals("README.md"))
        .filter(
            p -> root.relativize(p).getNameCount() > 1 && root.relativize(p).getNameCount() <= 3)
        .sorted()
        .forEach(pages::add);
    return pages;
  }

  /**
   * Every file of the tree but build output and hidden directories ({@code .git}, {@code .varve},
   * where local servers keep their data), which are not entered; {@code .ci}'s scripts are kept.
   */
  private static List<Path> tree() throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
            String name = dir.getFileName().toString();
            boolean skipped =
                !dir.equals(root)
                    && (name.startsWith(".") && !name.equals(".ci")
                        || name.equals("target")
                        || name.equals("node_modules"));
            return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            files.add(file);
            return FileVisitResult.CONTINUE;
          }
        });
    return files;
  }

  private static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("docs")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new UncheckedIOException(
        new IOException("no docs/ above " + Path.of("").toAbsolutePath()));
  }
}
