package io.varve.server;

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
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The pages users read: docs/*.md, the root README.md and every module's README.md (CHANGELOG.md
 * records what was true at each release and is left out), and the code spans of their prose, each
 * with its page and line, for the tests that check what the docs name against the code.
 */
public final class DocPages {

  /** A code span ({@code `text`}) outside fenced blocks, where the docs name a key or a class. */
  public record Span(String page, int line, String text) {
    /** Where the span is, as a failure names it: {@code docs/limits.md:42}. */
    public String where() {
      return page + ":" + line;
    }
  }

  /** A line of prose: outside fenced blocks. */
  public record Line(String page, int number, String text) {
    public String where() {
      return page + ":" + number;
    }
  }

  /** A sentence of prose or of a table's cell, at the line where it starts. */
  public record Sentence(String page, int line, String text) {
    public String where() {
      return page + ":" + line;
    }
  }

  /**
   * A {@code curl} example posting to {@code /v1/<rpc>}, with its body as written (comments and
   * all).
   */
  public record Curl(String page, String rpc, String body) {
    public String where() {
      return page + " curl " + rpc;
    }
  }

  /** A curl command, its lines joined by trailing backslashes. */
  private static final Pattern CURL = Pattern.compile("curl (?:[^\\n]*\\\\\\n)*[^\\n]*");

  private static final Pattern CURL_URL = Pattern.compile("http://127\\.0\\.0\\.1:8080/v1/(\\w+)");
  private static final Pattern INLINE_BODY =
      Pattern.compile("(?:-d|--data|--data-binary) '([^']*)'");
  private static final Pattern HEREDOC_BODY = Pattern.compile("\\n(.*?)\\nEOF\\n", Pattern.DOTALL);

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** The end of a sentence: a full stop, question or exclamation mark before a space. */
  private static final Pattern SENTENCE_END = Pattern.compile("[.!?](?=\\s)");

  private DocPages() {}

  /** The repository's root: the nearest directory upwards that holds docs/ and a pom.xml. */
  public static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("docs")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new AssertionError("no docs/ above " + Path.of("").toAbsolutePath());
  }

  /**
   * The {@code curl} examples of {@code docs/<page>} that post to {@code /v1/<Rpc>}, in the page's
   * order; an example whose body cannot be found fails.
   */
  public static List<Curl> curls(String page) {
    String text;
    try {
      text = Files.readString(root().resolve("docs").resolve(page));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Curl> all = new ArrayList<>();
    Matcher curl = CURL.matcher(text);
    while (curl.find()) {
      Matcher url = CURL_URL.matcher(curl.group());
      if (!url.find()) {
        continue;
      }
      Matcher inline = INLINE_BODY.matcher(curl.group());
      Matcher heredoc = HEREDOC_BODY.matcher(text).region(curl.end(), text.length());
      String body =
          curl.group().contains("<<'EOF'") && heredoc.lookingAt()
              ? heredoc.group(1)
              : inline.find() ? inline.group(1) : null;
      if (body == null) {
        throw new AssertionError(
            "no body found for the curl example of " + url.group(1) + " in " + page);
      }
      all.add(new Curl(page, url.group(1), body));
    }
    return all;
  }

  /** Every page, by its path from the root, docs/ first. */
  public static List<Path> pages() {
    Path root = root();
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    pages.add(root.resolve("README.md"));
    tree().stream()
        .filter(p -> p.getFileName().toString().equals("README.md"))
        .filter(
            p -> root.relativize(p).getNameCount() > 1 && root.relativize(p).getNameCount() <= 3)
        .sorted()
        .forEach(pages::add);
    return pages.stream().map(root::relativize).toList();
  }

  /**
   * Every file of the tree, build output ({@code target/}) and hidden directories ({@code .git},
   * {@code .varve}, where local servers keep their data) left out without being read.
   */
  public static List<Path> tree() {
    Path root = root();
    List<Path> files = new ArrayList<>();
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
              return !dir.equals(root) && hidden(root.relativize(dir))
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              files.add(file);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  /** Whether a path lies under a build output or a hidden directory (.git, .varve). */
  private static boolean hidden(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.equals("target") || name.equals("node_modules")) {
        return true;
      }
    }
    return false;
  }

  /** The lines of prose of every page: fenced blocks ({@code ```}) left out. */
  public static List<Line> lines() {
    Path root = root();
    List<Line> out = new ArrayList<>();
    for (Path page : pages()) {
      List<String> lines;
      try {
        lines = Files.readAllLines(root.resolve(page));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.stripLeading().startsWith("```")) {
          fenced = !fenced;
        } else if (!fenced) {
          out.add(new Line(page.toString(), i + 1, line));
        }
      }
    }
    return out;
  }

  /**
   * The sentences of the prose of every page: paragraphs (lines between blank lines, headings and
   * list items) and table cells, cut at each full stop.
   */
  public static List<Sentence> sentences() {
    List<Sentence> out = new ArrayList<>();
    List<Line> paragraph = new ArrayList<>();
    Line previous = null;
    for (Line line : lines()) {
      String text = line.text().strip();
      boolean breaks =
          previous == null
              || !previous.page().equals(line.page())
              || previous.number() != line.number() - 1
              || text.isEmpty()
              || text.startsWith("#")
              || text.startsWith("|")
              || text.matches("^(?:[-*]|\\d+\\.)\\s.*");
      if (breaks) {
        cut(paragraph, out);
        paragraph = new ArrayList<>();
      }
      if (text.startsWith("|")) {
        for (String cell : text.split("(?<!\\\\)\\|")) {
          cut(List.of(new Line(line.page(), line.number(), cell)), out);
        }
      } else if (!text.isEmpty()) {
        paragraph.add(line);
      }
      previous = line;
    }
    cut(paragraph, out);
    return out;
  }

  /** Cuts a paragraph into sentences, each at the line where it starts. */
  private static void cut(List<Line> paragraph, List<Sentence> out) {
    if (paragraph.isEmpty()) {
      return;
    }
    StringBuilder text = new StringBuilder();
    List<Integer> lineAt = new ArrayList<>();
    for (Line line : paragraph) {
      for (char c : (line.text().strip() + " ").toCharArray()) {
        text.append(c);
        lineAt.add(line.number());
      }
    }
    int start = 0;
    Matcher end = SENTENCE_END.matcher(text);
    while (start < text.length()) {
      int stop = end.find() ? end.end() : text.length();
      String sentence = text.substring(start, stop).strip();
      if (!sentence.isEmpty()) {
        out.add(new Sentence(paragraph.get(0).page(), lineAt.get(start), sentence));
      }
      start = stop;
    }
  }

  /** Every code span of the prose of every page. */
  public static List<Span> spans() {
    List<Span> out = new ArrayList<>();
    for (Line line : lines()) {
      Matcher m = CODE.matcher(line.text());
      while (m.find()) {
        out.add(new Span(line.page(), line.number(), m.group(1)));
      }
    }
    return out;
  }

  /**
   * How the docs may write a figure: a count or a size (33554432, 33,554,432, 32 MiB), a duration
   * (3600s, 3600 s, 1 hour, 60 minutes); nothing for other values.
   */
  public static List<String> figures(Object value) {
    List<String> forms = new ArrayList<>();
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      long v = ((Number) value).longValue();
      forms.add(Long.toString(v));
      forms.add(String.format(Locale.ROOT, "%,d", v));
      String[] units = {"KiB", "MiB", "GiB"};
      for (int k = 1; k <= units.length; k++) {
        long size = 1L << (10 * k);
        if (v >= size && v % size == 0) {
          forms.add(v / size + " " + units[k - 1]);
        }
      }
    } else if (value instanceof Duration d) {
      long s = d.toSeconds();
      forms.add(s + "s");
      forms.add(s + " s");
      forms.add(s + (s == 1 ? " second" : " seconds"));
      if (s % 60 == 0) {
        forms.add(s / 60 + (s == 60 ? " minute" : " minutes"));
      }
      if (s % 3600 == 0) {
        forms.add(s / 3600 + (s == 3600 ? " hour" : " hours"));
      }
    }
    return forms;
  }

  /** Whether {@code text} holds one of {@code figures} as a whole number, not part of another. */
  public static boolean showsFigure(String text, List<String> figures) {
    return figures.stream()
        .anyMatch(
            f ->
                Pattern.compile("(?<!\\d)(?<!\\d[.,])" + Pattern.quote(f) + "(?![\\d]|[.,]\\d)")
                    .matcher(text)
                    .find());
  }
}
