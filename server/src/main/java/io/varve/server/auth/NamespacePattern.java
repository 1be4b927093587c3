package io.varve.server.auth;

import io.varve.core.namespace.Names;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The namespaces a grant covers: one name ({@code orders}), every name starting with a prefix
 * ({@code orders_*}) or every namespace ({@code *}).
 *
 * @param text as configured
 */
public record NamespacePattern(String text) {

  /** What a pattern may look like, for "expected" messages. */
  public static final String EXPECTED =
      "a namespace name "
          + Names.EXPECTED
          + ", a prefix followed by * such as orders_*, or * for every namespace";

  private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_]{0,46}\\*");

  /** The pattern of a configured text, or empty when the text is not one. */
  public static Optional<NamespacePattern> parse(String text) {
    if (text.equals("*")
        || PREFIX.matcher(text).matches()
        || Names.IDENTIFIER.matcher(text).matches()) {
      return Optional.of(new NamespacePattern(text));
    }
    return Optional.empty();
  }

  /** Whether {@code namespace} is covered. */
  public boolean matches(String namespace) {
    if (text.endsWith("*")) {
      return namespace.startsWith(text.substring(0, text.length() - 1));
    }
    return text.equals(namespace);
  }

  @Override
  public String toString() {
    return text;
  }
}
