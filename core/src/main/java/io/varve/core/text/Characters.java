package io.varve.core.text;

/**
 * Text measured in characters as a user sees them: Unicode code points. An emoji is one character,
 * though Java counts it as two {@code char}s (a surrogate pair) and UTF-8 as four bytes. Every
 * limit of the API stated in characters counts this way; limits in bytes count UTF-8 bytes.
 *
 * <p>Thread-safe: stateless.
 */
public final class Characters {

  private Characters() {}

  /** The characters of {@code text}: its code points, an unpaired surrogate counting as one. */
  public static int count(CharSequence text) {
    return Character.codePointCount(text, 0, text.length());
  }

  /**
   * {@code text} as an error message echoes it: whole when it has at most {@code max} characters,
   * else its first {@code max - 3} characters and {@code "..."}. A character is never cut in two,
   * so the result is well-formed wherever {@code text} is.
   *
   * @throws IllegalArgumentException when {@code max} is less than 3
   */
  public static String shortened(CharSequence text, int max) {
    if (max < 3) {
      throw new IllegalArgumentException("max: " + max + " (expected: at least 3)");
    }
    // a cheap test first: no text of at most max chars has more than max characters
    if (text.length() <= max || count(text) <= max) {
      return text.toString();
    }
    int end = Character.offsetByCodePoints(text, 0, max - 3);
    return text.subSequence(0, end) + "...";
  }
}
