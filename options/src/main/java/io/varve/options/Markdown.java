package io.varve.options;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The little Markdown the doc lines use, turned into plain text and wrapped for a YAML comment. */
final class Markdown {

  private static final Pattern LINK = Pattern.compile("\\[([^\\]]+)]\\([^)]*\\)");

  private Markdown() {}

  /** The text without links' targets and code quotes. */
  static String plain(String markdown) {
    return LINK.matcher(markdown).replaceAll("$1").replace("`", "");
  }

  /**
   * Words of {@code text} in lines of at most {@code width} characters (a longer word stays whole).
   */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.trim().split("\\s+")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      line.append(line.length() == 0 ? "" : " ").append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }

  /** A table cell: pipes escaped, so that a pattern such as {@code a|b} stays in its cell. */
  static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
