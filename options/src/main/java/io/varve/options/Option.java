package io.varve.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One configuration option, declared once with everything the parser, the reference file, the docs
 * tables and the effective-configuration log line need: its key, type, default, range, whether it
 * can change at runtime, whether it is a secret, and a doc line. Declared through {@link
 * Options.Builder#option}; read with {@link OptionValues#get}. Immutable.
 *
 * @param <T> the type of its value
 */
public final class Option<T> {

  private final String key;
  private final ValueType<T> type;
  private final Function<OptionValues, T> defaultValue;
  private final String defaultDoc;
  private final String doc;
  private final boolean runtime;
  private final boolean secret;
  private final String example;
  private final List<String> aliases;
  private final Option<? extends Number> atLeast;
  private final Option<? extends Number> atMost;

  private Option(Builder<T> b, String doc) {
    this.key = b.key;
    this.type = b.type;
    this.defaultValue = b.defaultValue;
    this.defaultDoc = b.defaultDoc;
    this.doc = doc;
    this.runtime = b.runtime;
    this.secret = b.secret;
    this.example = b.example;
    this.aliases = List.copyOf(b.aliases);
    this.atLeast = b.atLeast;
    this.atMost = b.atMost;
  }

  /** The full key, e.g. {@code cassandra.requestTimeout}. */
  public String key() {
    return key;
  }

  /** The last part of the key. */
  public String name() {
    return key.substring(key.lastIndexOf('.') + 1);
  }

  public ValueType<T> type() {
    return type;
  }

  /** The doc line (Markdown). */
  public String doc() {
    return doc;
  }

  /** Whether a change applies without a restart. */
  public boolean changesAtRuntime() {
    return runtime;
  }

  /** Whether the value is a secret: never shown in errors or logs. */
  public boolean secret() {
    return secret;
  }

  /** Other keys accepted for the option (older names); the key itself wins when both are set. */
  public List<String> aliases() {
    return aliases;
  }

  /** The key, then its aliases: where a source looks for the value, in that order. */
  List<String> keysToLookUp() {
    List<String> keys = new ArrayList<>(List.of(key));
    keys.addAll(aliases);
    return keys;
  }

  /** Whether the option has a default; without one it is absent unless set. */
  public boolean hasDefault() {
    return defaultValue != null;
  }

  /** A value to show, commented out, in the reference file for an option absent by default. */
  public Optional<String> example() {
    return Optional.ofNullable(example);
  }

  /** The type and range in the docs' words, bounds set by other options named by their key. */
  public String typeDoc() {
    if (atLeast == null && atMost == null) {
      return type.describe();
    }
    IntegerType<?> numbers = (IntegerType<?>) type;
    return numbers
        .describedAs(
            atLeast == null ? Long.toString(numbers.min()) : "`" + atLeast.name() + "`",
            atMost == null ? Long.toString(numbers.max()) : "`" + atMost.name() + "`")
        .describe();
  }

  /**
   * The default in the docs' words (Markdown): {@code `8080`}, {@code `33554432` (32 MiB)}, absent.
   */
  public String defaultDoc(OptionValues defaults) {
    if (defaultDoc != null) {
      return defaultDoc;
    }
    if (!hasDefault()) {
      return "absent";
    }
    T value = defaults.get(this);
    String note = type.note(value);
    return "`" + type.format(value) + "`" + (note.isEmpty() ? "" : " (" + note + ")");
  }

  T defaultValue(OptionValues values) {
    return defaultValue.apply(values);
  }

  /** The type with bounds set by other options resolved against {@code values}. */
  ValueType<T> typeWithin(OptionValues values) {
    if (atLeast == null && atMost == null) {
      return type;
    }
    @SuppressWarnings("unchecked")
    IntegerType<? extends Number> numbers = (IntegerType<? extends Number>) type;
    long min =
        atLeast == null ? numbers.min() : Math.max(numbers.min(), values.get(atLeast).longValue());
    long max =
        atMost == null ? numbers.max() : Math.min(numbers.max(), values.get(atMost).longValue());
    @SuppressWarnings("unchecked")
    ValueType<T> within = (ValueType<T>) numbers.within(min, max);
    return within;
  }

  @Override
  public String toString() {
    return key;
  }

  /** The declaration of an option under way; {@link #doc} completes it. */
  public static final class Builder<T> {
    private final String key;
    private final ValueType<T> type;
    private final Consumer<Option<?>> registry;
    private Function<OptionValues, T> defaultValue;
    private String defaultDoc;
    private boolean runtime;
    private boolean secret;
    private String example;
    private final List<String> aliases = new ArrayList<>();
    private Option<? extends Number> atLeast;
    private Option<? extends Number> atMost;

    Builder(String key, ValueType<T> type, Consumer<Option<?>> registry) {
      this.key = Objects.requireNonNull(key);
      this.type = Objects.requireNonNull(type);
      this.registry = registry;
    }

    /** The value when the key is absent. Without a default the option is absent unless set. */
    public Builder<T> defaultValue(T value) {
      Objects.requireNonNull(value);
      this.defaultValue = values -> value;
      return this;
    }

    /** A default computed from other options, described in the docs' words by {@code doc}. */
    public Builder<T> defaultFrom(Function<OptionValues, T> compute, String doc) {
      this.defaultValue = Objects.requireNonNull(compute);
      this.defaultDoc = doc;
      return this;
    }

    /** The docs' words for the default, when the value alone does not say it ({@code auto}). */
    public Builder<T> defaultDoc(String doc) {
      this.defaultDoc = doc;
      return this;
    }

    /** A value shown commented out in the reference file, for an option without a default. */
    public Builder<T> example(String value) {
      this.example = value;
      return this;
    }

    /** The value is a secret: errors and the log line never show it. */
    public Builder<T> secret() {
      this.secret = true;
      return this;
    }

    /** A change applies without a restart. */
    public Builder<T> changesAtRuntime() {
      this.runtime = true;
      return this;
    }

    /** Another key accepted for this option, e.g. an older name. */
    public Builder<T> alias(String otherKey) {
      aliases.add(otherKey);
      return this;
    }

    /** An integer option whose lower bound is the value of {@code other}. */
    public Builder<T> atLeast(Option<? extends Number> other) {
      requireInteger();
      this.atLeast = other;
      return this;
    }

    /** An integer option whose upper bound is the value of {@code other}. */
    public Builder<T> atMost(Option<? extends Number> other) {
      requireInteger();
      this.atMost = other;
      return this;
    }

    /**
     * Completes the declaration with the option's doc line (Markdown, one paragraph) and adds it to
     * its registry: an option cannot be declared without one.
     */
    public Option<T> doc(String doc) {
      Option<T> option = new Option<>(this, Objects.requireNonNull(doc));
      registry.accept(option);
      return option;
    }

    private void requireInteger() {
      if (!(type instanceof IntegerType)) {
        throw new IllegalStateException(
            key + ": only integer options take bounds from other options");
      }
    }
  }
}
