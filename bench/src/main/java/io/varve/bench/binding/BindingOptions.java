package io.varve.bench.binding;

import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.RejectedValue;
import io.varve.options.Types;
import io.varve.options.ValueType;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Properties;
import java.util.regex.Pattern;
import site.ycsb.DBException;

/**
 * What the bindings' option registries share: the value types of names and endpoints, and reading a
 * run's properties with errors as YCSB's {@link DBException}, in the form {@code name: value
 * (expected: ...)}. Each binding declares its properties once, in its own {@code *Options} class;
 * docs/bench.md and docs/bench-dynamodb.md show tables generated from them.
 */
public final class BindingOptions {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

  /**
   * A table, keyspace, column or namespace name: letters, digits and underscores, 1 to 48
   * characters.
   */
  public static final ValueType<String> NAME =
      Types.matching(
          IDENTIFIER,
          "a name of letters, digits and"
              + " underscores starting with a letter or underscore, at most 48 characters");

  /** An {@code http} or {@code https} URL with a host. */
  public static final ValueType<URI> HTTP_URL =
      new ValueType<>() {
        private static final String EXPECTED =
            "a URL with scheme http or https and a host, like http://127.0.0.1:8000";

        @Override
        public URI parse(Object raw, String key) {
          try {
            URI uri = new URI(String.valueOf(raw));
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                && uri.getHost() != null) {
              return uri;
            }
          } catch (URISyntaxException e) {
            // refused below
          }
          throw RejectedValue.expected(EXPECTED);
        }

        @Override
        public String describe() {
          return "`http(s)://host:port`";
        }

        @Override
        public String format(URI value) {
          return value.toString();
        }
      };

  private BindingOptions() {}

  /** The binding's options among a run's properties (the others are YCSB's or the workload's). */
  public static OptionValues read(Options options, Properties properties) throws DBException {
    try {
      return OptionValues.fromProperties(options, properties);
    } catch (OptionException e) {
      throw new DBException(e.getMessage());
    }
  }

  /** Whether a name can be used as an unquoted CQL identifier. */
  public static boolean isIdentifier(String value) {
    return value != null && IDENTIFIER.matcher(value).matches();
  }
}
