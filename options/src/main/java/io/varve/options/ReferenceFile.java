package io.varve.options;

import java.util.List;

/**
 * Renders a registry as a YAML reference file: every option set to its default under its doc line,
 * its type, default and whether a restart applies it. Options without a default, and optional
 * sections, are shown commented out ({@code #key: example}): removing the {@code #} enables them.
 * Loaded as is, the file gives exactly the defaults.
 */
public final class ReferenceFile {

  private static final int WIDTH = 100;

  private final Options options;
  private final OptionValues defaults;
  private final StringBuilder out = new StringBuilder();

  private ReferenceFile(Options options) {
    this.options = options;
    this.defaults = OptionValues.defaults(options);
  }

  /**
   * The reference file of {@code options}.
   *
   * @param header the text above the first section, one comment paragraph per element (without
   *     {@code #}); an empty element is an empty comment line
   */
  public static String render(Options options, List<String> header) {
    ReferenceFile file = new ReferenceFile(options);
    for (String paragraph : header) {
      if (paragraph.isEmpty()) {
        file.out.append("#\n");
      }
      Markdown.wrap(paragraph, WIDTH - 2)
          .forEach(line -> file.out.append("# ").append(line).append('\n'));
    }
    file.section("", 0, false);
    return file.out.toString();
  }

  private void section(String path, int indent, boolean commented) {
    for (String name : options.children(path)) {
      String key = path.isEmpty() ? name : path + "." + name;
      out.append('\n');
      if (options.section(key).isPresent()) {
        Section section = options.section(key).get();
        comment(indent, section.doc());
        boolean off = commented || section.optional();
        line(indent, off, name + ":");
        section(key, indent + 2, off);
      } else {
        option(options.option(key).orElseThrow(), indent, commented);
      }
    }
  }

  private <T> void option(Option<T> option, int indent, boolean commented) {
    comment(indent, option.doc());
    if (option.type() instanceof EntryListType list) {
      comment(indent, "Each entry is a mapping with the keys:");
      for (Option<?> key : list.entry().options()) {
        List<String> lines =
            Markdown.wrap(
                Markdown.plain(key.key() + " (" + key.typeDoc() + "): " + key.doc()),
                WIDTH - indent - 6);
        for (int i = 0; i < lines.size(); i++) {
          out.append(" ".repeat(indent))
              .append(i == 0 ? "#   " : "#     ")
              .append(lines.get(i))
              .append('\n');
        }
      }
    }
    String restart = option.changesAtRuntime() ? "Changes at runtime." : "Restart to change.";
    comment(
        indent,
        "Type: " + option.typeDoc() + ". Default: " + option.defaultDoc(defaults) + ". " + restart);
    if (option.hasDefault() && !commented) {
      line(indent, false, option.name() + ": " + option.type().format(defaults.get(option)));
    } else {
      // shown commented out: an example says more than an empty default
      String value =
          option
              .example()
              .or(
                  () ->
                      option.hasDefault()
                          ? java.util.Optional.of(option.type().format(defaults.get(option)))
                          : java.util.Optional.empty())
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          option.key()
                              + " has no default: it needs an example"
                              + " for the reference file"));
      line(indent, true, option.name() + ": " + value);
    }
  }

  private void comment(int indent, String markdown) {
    if (!markdown.isEmpty()) {
      Markdown.wrap(Markdown.plain(markdown), WIDTH - indent - 2)
          .forEach(line -> out.append(" ".repeat(indent)).append("# ").append(line).append('\n'));
    }
  }

  private void line(int indent, boolean commented, String text) {
    out.append(" ".repeat(indent)).append(commented ? "#" : "").append(text).append('\n');
  }
}
