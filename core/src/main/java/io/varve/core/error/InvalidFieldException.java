package io.varve.core.error;

/**
 * A request field holds a value that is not allowed. The message has the form {@code <field>:
 * <value> (expected: <what>)}, e.g. {@code timePartition.eventBuckets: 0 (expected: 1..64)}.
 */
public final class InvalidFieldException extends VarveException {

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
    String cut = text.length() > 80 ? text.substring(0, 77) + "..." : text;
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
      String text = s.length() > 80 ? s.subSequence(0, 77) + "..." : s.toString();
      return '"' + text + '"';
    }
    return String.valueOf(value);
  }
}
