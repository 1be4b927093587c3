package io.varve.options;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The type of an option's value: how a raw value is read and checked, and how a value is written in
 * a configuration file and in the docs. {@link Types} has the common ones.
 *
 * <p>Raw values are what YAML and JSON parsers give ({@code String}, {@code Boolean}, a {@code
 * Number}, a {@code List} or a {@code Map}), or the {@code String}s of a properties file.
 * Implementations are immutable and thread-safe.
 *
 * @param <T> the value's Java type
 */
public interface ValueType<T> {

  /**
   * Reads a raw value, never {@code null} (an absent or null key takes the option's default).
   *
   * @param raw the raw value
   * @param key the full key, for types whose errors name a part of the value ({@code key[2]})
   * @throws RejectedValue when the value is not allowed
   * @throws OptionException when a part of the value is not allowed, naming that part's key
   */
  T parse(Object raw, String key);

  /** The type and its range for the docs, e.g. {@code integer, 0..65535} (Markdown). */
  String describe();

  /** A value as written in a YAML file, e.g. {@code 5s}, {@code ["127.0.0.1:9042"]}. */
  String format(T value);

  /** Words that help a reader with a value, e.g. {@code 32 MiB} for a byte count; empty if none. */
  default String note(T value) {
    return "";
  }

  /**
   * A type from its parts: {@code parse} reads a raw value and its full key (as {@link #parse}),
   * {@code described} is {@link #describe}, {@code format} is {@link #format}.
   */
  static <T> ValueType<T> of(
      String described, BiFunction<Object, String, T> parse, Function<T, String> format) {
    return new ValueType<>() {
      @Override
      public T parse(Object raw, String key) {
        return parse.apply(raw, key);
      }

      @Override
      public String describe() {
        return described;
      }

      @Override
      public String format(T value) {
        return format.apply(value);
      }
    };
  }
}
