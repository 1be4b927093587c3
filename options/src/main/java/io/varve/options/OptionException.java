package io.varve.options;

/**
 * An option holds a value that is not allowed, or a section holds a key that is not an option. The
 * message names the full key: {@code <key>: <value> (expected: <what>)}, e.g. {@code
 * cassandra.requestTimeout: "5 parsecs" (expected: a positive duration ...)}, or {@code <key>:
 * <problem>} when there is no value to show ({@code unknown key (expected one of: ...)}).
 *
 * <p>Each deployable turns it into its own error type at the edge of its configuration reading,
 * with the same message.
 */
public final class OptionException extends IllegalArgumentException {

  private static final int MAX_SHOWN = 80;

  private final String key;
  private final String problem;

  /**
   * @param key the full key, e.g. {@code server.port} or {@code server.auth.tokens[1].name}
   * @param shown the value as the file shows it, e.g. {@code "lz5"} or {@code 70000}; cut after 80
   *     characters
   * @param expected what would have been accepted
   */
  public OptionException(String key, String shown, String expected) {
    this(key, cut(shown) + " (expected: " + expected + ")", true);
  }

  private OptionException(String key, String problem, boolean unused) {
    super(key + ": " + problem);
    this.key = key;
    this.problem = problem;
  }

  /** An error without a value to show, e.g. {@code missing (expected: a PEM file)}. */
  public static OptionException of(String key, String problem) {
    return new OptionException(key, problem, true);
  }

  /** The full key at fault. */
  public String key() {
    return key;
  }

  /** The message without the key: {@code <value> (expected: <what>)} or the problem. */
  public String problem() {
    return problem;
  }

  /**
   * As the API's errors shorten an echoed value (core's {@code Characters.shortened}, which this
   * module, on the JDK alone, cannot use): in code points, never cutting a character in two.
   */
  private static String cut(String shown) {
    if (shown.codePointCount(0, shown.length()) <= MAX_SHOWN) {
      return shown;
    }
    return shown.substring(0, shown.offsetByCodePoints(0, MAX_SHOWN - 3)) + "...";
  }
}
