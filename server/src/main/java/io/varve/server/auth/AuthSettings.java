package io.varve.server.auth;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code server.auth} section: the accepted tokens and which pages besides the API need one.
 *
 * @param tokens every accepted token, the plain {@code bearerTokens} (full access) first; empty
 *     turns authentication off
 * @param authenticateMetrics whether {@code /metrics} needs a token with {@link Permission#METRICS}
 * @param authenticateDocs whether {@code /docs/} needs a token with {@link Permission#DOCS}
 */
public record AuthSettings(
    List<TokenGrant> tokens, boolean authenticateMetrics, boolean authenticateDocs) {

  public AuthSettings {
    tokens = List.copyOf(tokens);
  }

  /** No authentication, the default. */
  public static AuthSettings off() {
    return new AuthSettings(List.of(), false, false);
  }

  /** Whether API calls need a token. */
  public boolean enabled() {
    return !tokens.isEmpty();
  }

  /** The section for the log line: token names and grants, never the secrets. */
  public String describe() {
    return "server.auth.tokens="
        + (tokens.isEmpty()
            ? "off"
            : tokens.stream().map(TokenGrant::toString).collect(Collectors.joining("; ", "[", "]"))
                + " (secrets redacted)")
        + " server.auth.authenticateMetrics="
        + authenticateMetrics
        + " server.auth.authenticateDocs="
        + authenticateDocs;
  }

  @Override
  public String toString() {
    return describe();
  }
}
