package io.varve.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A YAML or JSON tree; errors show values as JSON text. */
final class TreeSource implements OptionValues.Source {

  private final String prefix;
  private final Object root;

  TreeSource(String prefix, Object root) {
    this.prefix = prefix;
    this.root = root;
  }

  @Override
  public OptionValues.Found find(Option<?> option) {
    for (String key : option.keysToLookUp()) {
      Object raw = at(key);
      if (raw != null) {
        return new OptionValues.Found(full(key), raw);
      }
    }
    return null;
  }

  @Override
  public String shown(Object raw) {
    return RawValues.json(raw);
  }

  @Override
  public void checkStructure(Options options) {
    List<String> paths = new ArrayList<>(List.of(""));
    options.sections().forEach(s -> paths.add(s.path()));
    for (String path : paths) {
      Object node = path.isEmpty() ? root : at(path);
      if (node == null) {
        continue;
      }
      if (!(node instanceof Map<?, ?> map)) {
        throw new OptionException(
            path.isEmpty() ? (prefix.isEmpty() ? "(root)" : prefix) : full(path),
            RawValues.json(node),
            "a mapping");
      }
      List<String> known = options.children(path);
      List<String> accepted = new ArrayList<>(known);
      options
          .options()
          .forEach(
              o ->
                  o.aliases().stream()
                      .filter(a -> parent(a).equals(path))
                      .forEach(a -> accepted.add(a.substring(a.lastIndexOf('.') + 1))));
      for (Object key : map.keySet()) {
        if (!accepted.contains(String.valueOf(key))) {
          String child = path.isEmpty() ? String.valueOf(key) : path + "." + key;
          throw OptionException.of(
              full(child), "unknown key (expected one of: " + String.join(", ", known) + ")");
        }
      }
    }
  }

  /**
   * The value at a dotted path; {@code null} when absent, null, or under a value that is no
   * mapping.
   */
  private Object at(String path) {
    Object node = root;
    for (String part : path.split("\\.")) {
      if (!(node instanceof Map<?, ?> map)) {
        return null;
      }
      node = map.get(part);
    }
    return node;
  }

  private String full(String key) {
    return prefix.isEmpty() ? key : prefix + "." + key;
  }

  private static String parent(String key) {
    int dot = key.lastIndexOf('.');
    return dot < 0 ? "" : key.substring(0, dot);
  }
}
