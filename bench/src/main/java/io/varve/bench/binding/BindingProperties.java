package io.varve.bench.binding;

import java.util.Properties;
import java.util.regex.Pattern;
import site.ycsb.DBException;

/**
 * Typed reads of binding properties; a bad value is a {@link DBException} naming the property,
 * the value and what was expected.
 */
public final class BindingProperties {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");
  private final Properties properties;

  public BindingProperties(Properties properties) {
    this.properties = properties;
  }

  public String string(String name, String defaultValue) {
    String value = properties.getProperty(name);
    return value == null || value.isBlank() ? defaultValue : value.trim();
  }

  public int integer(String name, int defaultValue, int min, int max) throws DBException {
    String value = properties.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new DBException("property " + name + "=" + value + " is not valid: expected an integer from " + min + " to " + max);
  }

  public boolean bool(String name, boolean defaultValue) throws DBException {
    String value = properties.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new DBException("property " + name + "=" + value + " is not valid: expected true or false");
    };
  }

  /** A table, keyspace or column name: letters, digits and underscores, 1 to 48 characters. */
  public String identifier(String name, String defaultValue) throws DBException {
    String value = string(name, defaultValue);
    checkIdentifier(name, value);
    return value;
  }

  /** Whether a name can be used as an unquoted CQL identifier (also a namespace name's shape). */
  public static boolean isIdentifier(String value) {
    return value != null && IDENTIFIER.matcher(value).matches();
  }

  /** Rejects a name that cannot be used as an unquoted CQL identifier. */
  public static void checkIdentifier(String what, String value) throws DBException {
    if (!isIdentifier(value)) {
      throw new DBException(what + "=" + value + " is not valid: expected a name of letters, digits and underscores "
          + "starting with a letter or underscore, at most 48 characters");
    }
  }
}
