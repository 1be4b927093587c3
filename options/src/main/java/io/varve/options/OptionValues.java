package io.varve.options;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The values of a registry's options read from one source: a YAML or JSON tree, or properties.
 * Reading checks everything at once, in declaration order: in a tree, that each section is a
 * mapping holding only the keys its registry declares; in any source, every value that is set. The
 * first problem is thrown as an {@link OptionException} naming the full key. Immutable once read.
 */
public final class OptionValues {

  /** Where raw values come from and how they are shown in errors. */
  interface Source {
    /** The option's raw value and the key it was found under, or {@code null} when absent. */
    Found find(Option<?> option);

    /** A raw value as errors show it. */
    String shown(Object raw);

    /** Refuses keys the registry does not declare and sections that are not mappings. */
    void checkStructure(Options options);
  }

  record Found(String key, Object raw) {}

  private static final String SECRET = "(a secret, not shown)";

  private final Options options;
  private final Source source;
  private final String prefix;
  private final Map<Option<?>, Found> found = new HashMap<>();
  private final Map<Option<?>, Object> values = new HashMap<>();

  private OptionValues(Options options, Source source, String prefix) {
    this.options = options;
    this.source = source;
    this.prefix = prefix;
    source.checkStructure(options);
    for (Option<?> option : options.options()) {
      Found raw = source.find(option);
      if (raw != null) {
        found.put(option, raw);
      }
    }
    // an option whose bound is another option's value reads that one first, whatever their order
    options.options().forEach(this::optional);
  }

  /**
   * Reads a tree of {@code Map}s, {@code List}s and scalars, as YAML and JSON parsers give them.
   *
   * @param prefix the full key of the tree's root, prepended to keys in errors; empty for a file
   * @param tree the root mapping; {@code null} when the file is empty (every option at its default)
   */
  public static OptionValues fromTree(Options options, String prefix, Object tree) {
    return new OptionValues(options, new TreeSource(prefix, tree), prefix);
  }

  /**
   * Reads properties whose names are the options' full keys; blank values count as absent, values
   * are trimmed. Properties the registry does not declare are left alone (they may be another
   * component's), so nothing is refused as unknown.
   */
  public static OptionValues fromProperties(Options options, Properties properties) {
    return new OptionValues(options, new PropertiesSource(properties), "");
  }

  /** Every option at its default. */
  public static OptionValues defaults(Options options) {
    return fromTree(options, "", null);
  }

  /** The value of {@code option}, or its default when it is not set. */
  public <T> T get(Option<T> option) {
    Optional<T> set = optional(option);
    if (set.isPresent()) {
      return set.get();
    }
    if (!option.hasDefault()) {
      throw new IllegalStateException(option.key() + " has no default: read it with optional()");
    }
    return option.defaultValue(this);
  }

  /** The value of {@code option} when it is set; empty otherwise, whatever its default. */
  public <T> Optional<T> optional(Option<T> option) {
    requireDeclared(option);
    Found raw = found.get(option);
    if (raw == null) {
      return Optional.empty();
    }
    if (!values.containsKey(option)) {
      values.put(option, parse(option, raw));
    }
    @SuppressWarnings("unchecked")
    T value = (T) values.get(option);
    return Optional.of(value);
  }

  /** Whether {@code option} is set. */
  public boolean isSet(Option<?> option) {
    requireDeclared(option);
    return found.containsKey(option);
  }

  /**
   * The full key of {@code option} as errors should name it: the key it was set under (an alias,
   * perhaps), under this source's prefix.
   */
  public String key(Option<?> option) {
    requireDeclared(option);
    Found raw = found.get(option);
    return raw != null ? raw.key() : prefix.isEmpty() ? option.key() : prefix + "." + option.key();
  }

  /**
   * The full key of the tree's root, e.g. {@code server.auth.tokens[2]}; empty for a whole file.
   */
  public String prefix() {
    return prefix;
  }

  private <T> T parse(Option<T> option, Found raw) {
    try {
      return option.typeWithin(this).parse(raw.raw(), raw.key());
    } catch (RejectedValue e) {
      String shown =
          option.secret() ? SECRET : e.shown() != null ? e.shown() : source.shown(raw.raw());
      throw new OptionException(raw.key(), shown, e.expectedText());
    }
  }

  private void requireDeclared(Option<?> option) {
    if (!options.contains(option)) {
      throw new IllegalArgumentException(option.key() + " is not an option of this registry");
    }
  }
}
