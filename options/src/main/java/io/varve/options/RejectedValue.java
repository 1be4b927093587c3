package io.varve.options;

/**
 * Thrown by a {@link ValueType} that refuses a value; the reader adds the key and, unless the type
 * chose what to show, the value as its source shows it (YAML values as JSON text, properties as
 * written).
 */
public final class RejectedValue extends RuntimeException {

  private final String shown;
  private final String expected;

  private RejectedValue(String shown, String expected) {
    super(expected, null, false, false);
    this.shown = shown;
    this.expected = expected;
  }

  /** The raw value is refused; the reader shows it. */
  public static RejectedValue expected(String expected) {
    return new RejectedValue(null, expected);
  }

  /** The value is refused and shown as {@code shown}, e.g. a parsed number or a description. */
  public static RejectedValue showing(String shown, String expected) {
    return new RejectedValue(shown, expected);
  }

  /** What to show instead of the raw value, or {@code null} to show the raw value. */
  String shown() {
    return shown;
  }

  /** What would have been accepted. */
  String expectedText() {
    return expected;
  }
}
