package io.varve.options;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The configuration a deployable runs with, as one log line: {@code key=value} for every option of
 * its registry, in declaration order, secrets redacted. The values are the effective ones (after
 * defaults and command-line overrides), given per option; {@link #line} refuses to leave an option
 * out, so an option added to the registry cannot be missing from the log. Not thread-safe.
 */
public final class EffectiveConfig {

  private static final String REDACTED = "(redacted)";
  private static final String NONE = "(none)";

  private final Options options;
  private final Map<Option<?>, String> shown = new HashMap<>();

  public EffectiveConfig(Options options) {
    this.options = options;
  }

  /** The option's effective value. */
  public <T> EffectiveConfig put(Option<T> option, T value) {
    return show(
        option, option.secret() ? (empty(value) ? NONE : REDACTED) : option.type().format(value));
  }

  /** The effective value of an option that may be absent. */
  public <T> EffectiveConfig put(Option<T> option, Optional<T> value) {
    return value.isPresent() ? put(option, value.get()) : show(option, NONE);
  }

  /**
   * The effective value in words, for a value whose type does not say it well (a list of
   * credentials shown by name). The words must hold no secret.
   */
  public EffectiveConfig describe(Option<?> option, String words) {
    return show(option, words);
  }

  /**
   * The line.
   *
   * @throws IllegalStateException naming the options no value was given for
   */
  public String line() {
    List<String> missing =
        options.options().stream().filter(o -> !shown.containsKey(o)).map(Option::key).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException("no effective value for " + missing);
    }
    return options.options().stream()
        .map(o -> o.key() + "=" + shown.get(o))
        .collect(Collectors.joining(" "));
  }

  private EffectiveConfig show(Option<?> option, String text) {
    if (!options.contains(option)) {
      throw new IllegalArgumentException(option.key() + " is not an option of this registry");
    }
    shown.put(option, text);
    return this;
  }

  private static boolean empty(Object value) {
    return value == null
        || value instanceof Collection<?> c && c.isEmpty()
        || value instanceof CharSequence s && s.isEmpty();
  }
}
