package io.varve.core.error;

import io.varve.core.text.Characters;

/**
 * A request field holds a value that is not allowed. The message has the form {@code <field>:
 * <value> (expected: <what>)}, e.g. {@code timePartition.eventBuckets: 0 (expected: 1..64)}.
 */
public final class InvalidFieldException extends VarveException {

  /**
   * Most characters of a value a message echoes; a longer one is shortened ({@link Characters}).
   */
  private static final int MAX_SHOWN = 80;

  private final String field;

  public InvalidFieldException(String field, Object value, String expected) {
    super(Kind.INVALID_ARGUMENT, field + ": " + render(value) + " (expected: " + expected + ")");
    this.field = field;
  }

  /** A message about a field that is not of the value/expected form (e.g. a missing field). */
  public static InvalidFieldException of(String field, String problem) {
    return new InvalidFieldException(field, problem);
  }

  private InvalidFieldException(String field, String problem) {
    super(Kind.INVALID_ARGUMENT, field + ": " + problem);
    this.field = field;
  }

  /**
   * A value shown as is, without quotes: a description ({@code "1200 events"}) or a value already
   * rendered (JSON text).
   */
  public static Object shown(String text) {
    String cut = Characters.shortened(text, MAX_SHOWN);
    return new Object() {
      @Override
      public String toString() {
        return cut;
      }
    };
  }

  /** Path of the offending field, e.g. {@code events[3].eventItems[0].eventItemValue}. */
  public String field() {
    return field;
  }

  private static String render(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof CharSequence s) {
      return '"' + Characters.shortened(s, MAX_SHOWN) + '"';
    }
    return String.valueOf(value);
  }
}
