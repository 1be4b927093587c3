package io.varve.options;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps generated files (a reference file) and generated parts of Markdown pages (the options
 * tables) in step with the option declarations. A part of a page sits between {@code <!--
 * generated: NAME -->} and {@code <!-- end: NAME -->}, set off by empty lines; the prose around it
 * stays hand-written. Docs tests call {@link #verify}.
 */
public final class GeneratedFiles {

  private static final Pattern PART =
      Pattern.compile(
          "(<!-- generated: ([\\w.-]+) -->\\n)(.*?)(<!-- end: \\2 -->)", Pattern.DOTALL);

  private GeneratedFiles() {}

  /**
   * The page with each generated part replaced by its new content.
   *
   * @param parts content by part name; every name must be a part of the page and every part of the
   *     page must be named, so that no table is left behind or generated for nothing
   * @throws IllegalArgumentException naming the parts that do not match
   */
  public static String update(String page, Map<String, String> parts) {
    Map<String, String> left = new LinkedHashMap<>(parts);
    Matcher m = PART.matcher(page);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String content = left.remove(m.group(2));
      if (content == null) {
        throw new IllegalArgumentException(
            "the page has a generated part " + m.group(2) + " with no source");
      }
      m.appendReplacement(
          out, Matcher.quoteReplacement(m.group(1) + "\n" + content + "\n" + m.group(4)));
    }
    m.appendTail(out);
    if (!left.isEmpty()) {
      throw new IllegalArgumentException("the page has no generated part named " + left.keySet());
    }
    return out.toString();
  }

  /**
   * Checks that {@code file} holds {@code expected}, or writes it there when the system property
   * {@code varve.generate} is {@code true} (how a changed declaration reaches the generated files).
   *
   * @throws IllegalStateException when the file differs, saying how to regenerate it
   */
  public static void verify(Path file, String expected) throws IOException {
    if (Boolean.getBoolean("varve.generate")) {
      Files.writeString(file, expected, StandardCharsets.UTF_8);
      return;
    }
    String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    if (!actual.equals(expected)) {
      throw new IllegalStateException(
          file
              + " is not what the option declarations generate: run the test"
              + " again with -Dvarve.generate=true to write it, and commit the result");
    }
  }
}
