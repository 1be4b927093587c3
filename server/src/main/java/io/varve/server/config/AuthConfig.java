package io.varve.server.config;

import io.varve.core.error.InvalidFieldException;
import io.varve.server.auth.AuthSettings;
import io.varve.server.auth.NamespacePattern;
import io.varve.server.auth.Permission;
import io.varve.server.auth.TokenGrant;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Reads {@code server.auth}: the plain {@code bearerTokens} (full access) and the {@code tokens}
 * with their permissions. Token values are checked but never shown in an error.
 */
final class AuthConfig {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
  private static final String SOURCES = "exactly one of token, tokenFile, tokenEnv";

  private final UnaryOperator<String> environment;

  AuthConfig(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  AuthSettings parse(ConfigNode auth) {
    auth.only(Set.of("bearerTokens", "tokens", "authenticateMetrics", "authenticateDocs"));
    List<TokenGrant> grants = new ArrayList<>();
    Map<String, String> keyBySecret = new HashMap<>();
    List<String> plain = auth.strings("bearerTokens", List.of());
    for (int i = 0; i < plain.size(); i++) {
      String key = auth.key("bearerTokens") + "[" + i + "]";
      if (keyBySecret.putIfAbsent(plain.get(i), key) == null) {
        grants.add(TokenGrant.fullAccess("bearerTokens[" + i + "]", plain.get(i)));
      }
    }
    Map<String, String> keyByName = new HashMap<>();
    for (ConfigNode token : auth.sections("tokens")) {
      TokenGrant grant = token(token);
      String earlier = keyBySecret.putIfAbsent(grant.secret(), token.key(""));
      if (earlier != null) {
        throw InvalidFieldException.of(strip(token.key("")), "the same token as " + strip(earlier)
            + " (expected: a distinct token per entry, so that each has one set of permissions)");
      }
      String sameName = keyByName.putIfAbsent(grant.name(), token.key("name"));
      if (sameName != null) {
        throw new InvalidFieldException(token.key("name"), grant.name(), "a name not used by " + strip(sameName));
      }
      grants.add(grant);
    }
    boolean metrics = auth.bool("authenticateMetrics", false);
    boolean docs = auth.bool("authenticateDocs", false);
    for (String key : List.of("authenticateMetrics", "authenticateDocs")) {
      if (grants.isEmpty() && auth.bool(key, false)) {
        throw new InvalidFieldException(auth.key(key), true, "false unless bearerTokens or tokens lists a token");
      }
    }
    return new AuthSettings(grants, metrics, docs);
  }

  private TokenGrant token(ConfigNode t) {
    t.only(Set.of("name", "token", "tokenFile", "tokenEnv", "permissions", "namespaces"));
    String name = t.optionalString("name").orElseThrow(() -> InvalidFieldException.of(t.key("name"),
        "missing (expected: a name for logs and errors, " + NAME.pattern() + ")"));
    if (!NAME.matcher(name).matches()) {
      throw new InvalidFieldException(t.key("name"), name, NAME.pattern());
    }
    Set<Permission> permissions = EnumSet.noneOf(Permission.class);
    List<String> names = t.strings("permissions", List.of());
    if (names.isEmpty()) {
      throw InvalidFieldException.of(t.key("permissions"), "missing or empty (expected: a list of "
          + Permission.configNames() + ")");
    }
    for (int i = 0; i < names.size(); i++) {
      String key = t.key("permissions") + "[" + i + "]";
      String text = names.get(i);
      permissions.add(Permission.ofConfigName(text).orElseThrow(() -> new InvalidFieldException(key, text,
          "one of " + Permission.configNames())));
    }
    List<String> patterns = t.strings("namespaces", List.of());
    boolean namespaced = permissions.stream().anyMatch(Permission::namespaced);
    if (namespaced && patterns.isEmpty()) {
      throw InvalidFieldException.of(t.key("namespaces"), "missing or empty (expected: the namespaces the read,"
          + " write and admin permissions apply to: names, prefixes such as orders_*, or * for every namespace)");
    }
    if (!namespaced && !patterns.isEmpty()) {
      throw InvalidFieldException.of(t.key("namespaces"), "set, but " + names + " apply to no namespace (expected:"
          + " no namespaces, or a permission among read, write, admin)");
    }
    List<NamespacePattern> namespaces = new ArrayList<>();
    for (int i = 0; i < patterns.size(); i++) {
      String key = t.key("namespaces") + "[" + i + "]";
      String text = patterns.get(i);
      namespaces.add(NamespacePattern.parse(text)
          .orElseThrow(() -> new InvalidFieldException(key, text, NamespacePattern.EXPECTED)));
    }
    return new TokenGrant(name, secret(t), permissions, namespaces);
  }

  private String secret(ConfigNode t) {
    List<String> sources = List.of("token", "tokenFile", "tokenEnv").stream().filter(t::has).toList();
    if (sources.isEmpty()) {
      throw InvalidFieldException.of(t.key("token"), "missing (expected: " + SOURCES + ")");
    }
    if (sources.size() > 1) {
      throw InvalidFieldException.of(t.key(sources.get(1)), "set together with " + sources.get(0) + " (expected: "
          + SOURCES + ")");
    }
    String key;
    String secret;
    if (t.has("token")) {
      key = t.key("token");
      secret = t.string("token", "");
    } else if (t.has("tokenFile")) {
      key = t.key("tokenFile");
      Path file = t.path("tokenFile").orElseThrow();
      try {
        secret = Files.readString(file, StandardCharsets.UTF_8).strip();
      } catch (IOException | RuntimeException e) {
        throw new InvalidFieldException(key, file.toString(), "a readable file holding the token (" + e + ")");
      }
    } else {
      key = t.key("tokenEnv");
      String variable = t.string("tokenEnv", "");
      secret = variable.isEmpty() ? null : environment.apply(variable);
      if (secret == null || secret.isEmpty()) {
        throw new InvalidFieldException(key, variable, "the name of a set, non-empty environment variable");
      }
      secret = secret.strip();
    }
    if (secret.isEmpty() || !secret.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw InvalidFieldException.of(key, "not a usable token (expected: one or more printable ASCII characters"
          + " without spaces, such as the output of openssl rand -base64 32; the value is not shown)");
    }
    return secret;
  }

  /** A section's own key, from {@code key("")} which ends with a dot. */
  private static String strip(String key) {
    return key.endsWith(".") ? key.substring(0, key.length() - 1) : key;
  }
}
