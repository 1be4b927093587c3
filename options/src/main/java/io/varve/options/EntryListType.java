package io.varve.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A list of mappings, each read with the options of one entry and named {@code key[i]}. Values that
 * are not mappings are described, never shown: such lists often hold secrets.
 */
final class EntryListType implements ValueType<List<OptionValues>> {

  private final Options entry;

  EntryListType(Options entry) {
    this.entry = entry;
  }

  /** The options of one entry. */
  Options entry() {
    return entry;
  }

  @Override
  public List<OptionValues> parse(Object raw, String key) {
    if (!(raw instanceof List<?> list)) {
      throw RejectedValue.showing("a " + RawValues.kind(raw), "a list of mappings");
    }
    List<OptionValues> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.get(i) instanceof Map<?, ?> item)) {
        throw OptionException.of(
            key + "[" + i + "]", "a " + RawValues.kind(list.get(i)) + " (expected: a mapping)");
      }
      out.add(OptionValues.fromTree(entry, key + "[" + i + "]", item));
    }
    return List.copyOf(out);
  }

  @Override
  public String describe() {
    return "list of mappings";
  }

  @Override
  public String format(List<OptionValues> value) {
    return value.isEmpty() ? "[]" : "[...]";
  }
}
