package io.varve.core.namespace;

import io.varve.core.error.InvalidFieldException;
import java.util.regex.Pattern;

/** Rules for namespace and keyspace names; both become CQL identifiers, so both are strict. */
public final class Names {

  /** A namespace or dataset name: lower case, starts with a letter, 48 characters at most. */
  public static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0,47}");

  public static final String EXPECTED = "[a-z][a-z0-9_]{0,47}";

  private Names() {}

  public static String namespace(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw InvalidFieldException.of(
          field, "missing (expected: a namespace name " + EXPECTED + ")");
    }
    if (!IDENTIFIER.matcher(value).matches()) {
      throw new InvalidFieldException(field, value, EXPECTED);
    }
    return value;
  }

  /** A keyspace name; names of Cassandra's own keyspaces and {@code reserved} are refused. */
  public static String keyspace(String field, String value, String reserved) {
    if (value == null || !IDENTIFIER.matcher(value).matches()) {
      throw new InvalidFieldException(field, value, EXPECTED);
    }
    if (value.startsWith("system") || value.equals(reserved)) {
      throw new InvalidFieldException(
          field, value, "a keyspace not starting with 'system' and other than '" + reserved + "'");
    }
    return value;
  }
}
