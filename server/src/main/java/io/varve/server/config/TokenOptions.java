package io.varve.server.config;

import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** The options of one entry of {@code server.auth.tokens}: a token and what it may do. */
public final class TokenOptions {

  static final Pattern NAME_PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  private static final Options.Builder OPTIONS = Options.builder();

  public static final Option<String> NAME =
      OPTIONS
          .option("name", Types.matching(NAME_PATTERN, NAME_PATTERN.pattern()))
          .example("orders-ingest")
          .doc(
              "Required and unique. Names the token in the start-up log line and in `PERMISSION_DENIED` messages,"
                  + " never the token itself.");
  public static final Option<String> TOKEN =
      OPTIONS
          .option("token", Types.string())
          .secret()
          .example("3kq9W2u0v7...")
          .doc("The token itself, in the file.");
  public static final Option<Path> TOKEN_FILE =
      OPTIONS
          .option("tokenFile", Types.path())
          .example("/etc/varve/tokens/orders-ingest")
          .doc(
              "A file holding the token; whitespace around it (a final newline) is ignored. Read once at start.");
  public static final Option<String> TOKEN_ENV =
      OPTIONS
          .option("tokenEnv", Types.string())
          .example("VARVE_ORDERS_TOKEN")
          .doc("The name of an environment variable holding the token.");
  public static final Option<List<String>> PERMISSIONS =
      OPTIONS
          .option("permissions", Types.strings())
          .example("[write]")
          .doc(
              "Required, not empty: among `read`, `write`, `admin`, `metrics`, `docs`. No permission implies"
                  + " another.");
  public static final Option<List<String>> NAMESPACES =
      OPTIONS
          .option("namespaces", Types.strings())
          .example("[orders, orders_*]")
          .doc(
              "The namespaces `read`, `write` and `admin` apply to: a name (`orders`), a prefix followed by `*`"
                  + " (`orders_*`: every namespace whose name starts with `orders_`, including ones created later), or"
                  + " `*` (every namespace). Required and not empty when the token has `read`, `write` or `admin`;"
                  + " refused when it has only `metrics` / `docs`.");

  public static final Options ALL = OPTIONS.build();

  private TokenOptions() {}
}
