package io.varve.options;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Renders a registry as a Markdown table: key, type and range, default and doc line of every option
 * and of every documented section under the one the table is about, in declaration order. A column
 * says whether a change applies at runtime when some option of the table can.
 */
public final class OptionsTable {

  private final Options options;
  private final OptionValues defaults;
  private final boolean runtime;

  /** The section every row is under, which the table's heading names: it gets no row of its own. */
  private final String root;

  private final StringBuilder out = new StringBuilder();

  private OptionsTable(Options options, OptionValues defaults) {
    this.options = options;
    this.defaults = defaults;
    this.runtime = options.options().stream().anyMatch(Option::changesAtRuntime);
    String common = null;
    for (Option<?> option : options.options()) {
      String parent =
          option.key().contains(".")
              ? option.key().substring(0, option.key().lastIndexOf('.'))
              : "";
      common = common == null ? parent : commonSection(common, parent);
    }
    this.root = common == null ? "" : common;
  }

  /**
   * The table of {@code options}.
   *
   * @param keyColumn the heading of the key column, e.g. {@code Key} or {@code Property}
   * @param defaults the values that defaults computed from other options are computed from
   */
  public static String render(Options options, String keyColumn, OptionValues defaults) {
    OptionsTable table = new OptionsTable(options, defaults);
    table.row(List.of(keyColumn, "Type, unit", "Default", "Meaning"), "Runtime");
    table.row(List.of("---", "---", "---", "---"), "---");
    table.rows();
    return table.out.toString();
  }

  private void rows() {
    for (Object entry : options.entries()) {
      if (entry instanceof Section section) {
        if (!section.doc().isEmpty() && !(root + ".").startsWith(section.path() + ".")) {
          row(
              List.of(
                  "`" + section.path() + "`",
                  "mapping",
                  section.optional() ? "absent" : "",
                  section.doc()),
              "");
        }
      } else {
        Option<?> option = (Option<?>) entry;
        String keys =
            "`"
                + option.key()
                + "`"
                + option.aliases().stream()
                    .map(a -> " (or `" + a + "`)")
                    .collect(Collectors.joining());
        row(
            List.of(keys, option.typeDoc(), option.defaultDoc(defaults), option.doc()),
            option.changesAtRuntime() ? "yes" : "no");
      }
    }
  }

  private static String commonSection(String a, String b) {
    while (!(b + ".").startsWith(a + ".") && !a.isEmpty()) {
      a = a.contains(".") ? a.substring(0, a.lastIndexOf('.')) : "";
    }
    return a;
  }

  private void row(List<String> cells, String runtimeCell) {
    out.append('|');
    for (int i = 0; i < cells.size(); i++) {
      out.append(' ').append(Markdown.cell(cells.get(i))).append(" |");
      if (i == 2 && runtime) {
        out.append(' ').append(runtimeCell).append(" |");
      }
    }
    out.append('\n');
  }
}
