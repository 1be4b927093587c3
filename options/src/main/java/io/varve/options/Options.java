package io.varve.options;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A registry of options: every option of a deployable (or of one part of it), each declared once,
 * in the order the reference file and the docs show them. The keys a section accepts are derived
 * from it, so the parser, the reference file and the docs cannot disagree on them. Immutable.
 *
 * <pre>{@code
 * private static final Options.Builder OPTIONS = Options.builder();
 * public static final Section SERVER = OPTIONS.section("server", "The API endpoint.");
 * public static final Option<Integer> PORT = OPTIONS.option("server.port", Types.integer(0, 65535))
 *     .defaultValue(8080).doc("Port of gRPC and HTTP/JSON.");
 * public static final Options ALL = OPTIONS.build();
 * }</pre>
 */
public final class Options {

  /** Sections and options in declaration order. */
  private final List<Object> entries;

  private final Map<String, Section> sections = new LinkedHashMap<>();
  private final Map<String, Option<?>> options = new LinkedHashMap<>();
  private final Map<String, List<String>> children = new LinkedHashMap<>();

  private Options(List<Object> entries) {
    this.entries = List.copyOf(entries);
    children.put("", new ArrayList<>());
    for (Object entry : entries) {
      String path = path(entry);
      if (sections.containsKey(path) || options.containsKey(path)) {
        throw new IllegalStateException(path + " is declared twice (or after an option under it)");
      }
      addParents(path);
      if (entry instanceof Section s) {
        sections.put(path, s);
        children.put(path, new ArrayList<>());
      } else {
        options.put(path, (Option<?>) entry);
      }
      children.get(parent(path)).add(path.substring(path.lastIndexOf('.') + 1));
    }
  }

  /** A registry to declare options into. */
  public static Builder builder() {
    return new Builder();
  }

  /** The options of several registries, in order; a key may be declared by one only. */
  public static Options of(Options... parts) {
    return new Options(Arrays.stream(parts).flatMap(p -> p.entries.stream()).toList());
  }

  /** Every option, in declaration order. */
  public List<Option<?>> options() {
    return List.copyOf(options.values());
  }

  /** Sections and options in declaration order (sections only implied by a key left out). */
  List<Object> entries() {
    return entries;
  }

  /** Every section, in declaration order, sections only implied by an option's key included. */
  public List<Section> sections() {
    return List.copyOf(sections.values());
  }

  public Optional<Section> section(String path) {
    return Optional.ofNullable(sections.get(path));
  }

  public Optional<Option<?>> option(String key) {
    return Optional.ofNullable(options.get(key));
  }

  /** The names of the options and sections directly in a section ({@code ""}: the top level). */
  public List<String> children(String path) {
    return List.copyOf(children.getOrDefault(path, List.of()));
  }

  public boolean contains(Option<?> option) {
    return options.get(option.key()) == option;
  }

  /** The section or option at {@code path} and everything under it. */
  public Options under(String path) {
    return filter(p -> p.equals(path) || p.startsWith(path + "."));
  }

  /** Everything but what is under {@code path}; the section itself stays. */
  public Options without(String path) {
    return filter(p -> !p.startsWith(path + "."));
  }

  /**
   * These options only, in this registry's order, with the sections they are in: one deployable's
   * subset of another's keys, each still declared once.
   */
  public Options only(java.util.Collection<? extends Option<?>> keep) {
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (Option<?> option : keep) {
      if (!contains(option)) {
        throw new IllegalArgumentException(option.key() + " is not in this registry");
      }
      keys.add(option.key());
    }
    return filter(p -> keys.contains(p) || keys.stream().anyMatch(k -> k.startsWith(p + ".")));
  }

  private Options filter(Predicate<String> keep) {
    return new Options(entries.stream().filter(e -> keep.test(path(e))).toList());
  }

  private void addParents(String path) {
    String parent = parent(path);
    if (!parent.isEmpty() && !sections.containsKey(parent)) {
      if (options.containsKey(parent)) {
        throw new IllegalStateException(path + " is under the option " + parent);
      }
      addParents(parent);
      sections.put(parent, new Section(parent, "", false));
      children.put(parent, new ArrayList<>());
      children.get(parent(parent)).add(parent.substring(parent.lastIndexOf('.') + 1));
    }
  }

  private static String parent(String path) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? "" : path.substring(0, dot);
  }

  private static String path(Object entry) {
    return entry instanceof Section s ? s.path() : ((Option<?>) entry).key();
  }

  /** Collects declarations in order; {@link #build} makes the registry. Not thread-safe. */
  public static final class Builder {
    private final List<Object> entries = new ArrayList<>();

    private Builder() {}

    /** A section, declared before the options under it so that its doc line leads them. */
    public Section section(String path, String doc) {
      Section section = new Section(path, doc, false);
      entries.add(section);
      return section;
    }

    /** A section absent by default, whose presence turns a feature on (TLS). */
    public Section optionalSection(String path, String doc) {
      Section section = new Section(path, doc, true);
      entries.add(section);
      return section;
    }

    /** Starts the declaration of an option; {@link Option.Builder#doc} completes it. */
    public <T> Option.Builder<T> option(String key, ValueType<T> type) {
      return new Option.Builder<>(key, type, entries::add);
    }

    public Options build() {
      return new Options(entries);
    }
  }
}
