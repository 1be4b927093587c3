package io.varve.server.config;

import io.varve.core.error.InvalidFieldException;
import io.varve.options.Option;
import io.varve.options.OptionValues;
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

/**
 * Reads {@code server.auth} ({@link ServerOptions#AUTH}): the plain {@code bearerTokens} (full
 * access) and the {@code tokens} ({@link TokenOptions}) with their permissions. Token values are
 * checked but never shown in an error.
 */
final class AuthConfig {

  private static final String SOURCES = "exactly one of token, tokenFile, tokenEnv";

  private final UnaryOperator<String> environment;

  AuthConfig(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  /** Reads {@code server.auth} from the values of the server's file. */
  AuthSettings parse(OptionValues server) {
    List<TokenGrant> grants = new ArrayList<>();
    Map<String, String> keyBySecret = new HashMap<>();
    List<String> plain = server.get(ServerOptions.BEARER_TOKENS);
    for (int i = 0; i < plain.size(); i++) {
      String key = server.key(ServerOptions.BEARER_TOKENS) + "[" + i + "]";
      if (keyBySecret.putIfAbsent(plain.get(i), key) == null) {
        grants.add(TokenGrant.fullAccess("bearerTokens[" + i + "]", plain.get(i)));
      }
    }
    Map<String, String> keyByName = new HashMap<>();
    for (OptionValues token : server.get(ServerOptions.TOKENS)) {
      TokenGrant grant = token(token);
      String earlier = keyBySecret.putIfAbsent(grant.secret(), token.prefix());
      if (earlier != null) {
        throw InvalidFieldException.of(
            token.prefix(),
            "the same token as "
                + earlier
                + " (expected: a distinct token per entry, so that each has one set of permissions)");
      }
      String sameName = keyByName.putIfAbsent(grant.name(), token.key(TokenOptions.NAME));
      if (sameName != null) {
        throw new InvalidFieldException(
            token.key(TokenOptions.NAME), grant.name(), "a name not used by " + sameName);
      }
      grants.add(grant);
    }
    for (Option<Boolean> option :
        List.of(ServerOptions.AUTHENTICATE_METRICS, ServerOptions.AUTHENTICATE_DOCS)) {
      if (grants.isEmpty() && server.get(option)) {
        throw new InvalidFieldException(
            server.key(option), true, "false unless bearerTokens or tokens lists a token");
      }
    }
    return new AuthSettings(
        grants,
        server.get(ServerOptions.AUTHENTICATE_METRICS),
        server.get(ServerOptions.AUTHENTICATE_DOCS));
  }

  private TokenGrant token(OptionValues t) {
    String name =
        t.optional(TokenOptions.NAME)
            .orElseThrow(
                () ->
                    InvalidFieldException.of(
                        t.key(TokenOptions.NAME),
                        "missing (expected: a name for logs and errors, "
                            + TokenOptions.NAME_PATTERN.pattern()
                            + ")"));
    Set<Permission> permissions = EnumSet.noneOf(Permission.class);
    List<String> names = t.optional(TokenOptions.PERMISSIONS).orElse(List.of());
    String permissionsKey = t.key(TokenOptions.PERMISSIONS);
    if (names.isEmpty()) {
      throw InvalidFieldException.of(
          permissionsKey,
          "missing or empty (expected: a list of " + Permission.configNames() + ")");
    }
    for (int i = 0; i < names.size(); i++) {
      String key = permissionsKey + "[" + i + "]";
      String text = names.get(i);
      permissions.add(
          Permission.ofConfigName(text)
              .orElseThrow(
                  () ->
                      new InvalidFieldException(key, text, "one of " + Permission.configNames())));
    }
    List<String> patterns = t.optional(TokenOptions.NAMESPACES).orElse(List.of());
    String namespacesKey = t.key(TokenOptions.NAMESPACES);
    boolean namespaced = permissions.stream().anyMatch(Permission::namespaced);
    if (namespaced && patterns.isEmpty()) {
      throw InvalidFieldException.of(
          namespacesKey,
          "missing or empty (expected: the namespaces the read,"
              + " write and admin permissions apply to: names, prefixes such as orders_*, or * for every namespace)");
    }
    if (!namespaced && !patterns.isEmpty()) {
      throw InvalidFieldException.of(
          namespacesKey,
          "set, but "
              + names
              + " apply to no namespace (expected:"
              + " no namespaces, or a permission among read, write, admin)");
    }
    List<NamespacePattern> namespaces = new ArrayList<>();
    for (int i = 0; i < patterns.size(); i++) {
      String key = namespacesKey + "[" + i + "]";
      String text = patterns.get(i);
      namespaces.add(
          NamespacePattern.parse(text)
              .orElseThrow(() -> new InvalidFieldException(key, text, NamespacePattern.EXPECTED)));
    }
    return new TokenGrant(name, secret(t), permissions, namespaces);
  }

  private String secret(OptionValues t) {
    List<Option<?>> sources =
        List.<Option<?>>of(TokenOptions.TOKEN, TokenOptions.TOKEN_FILE, TokenOptions.TOKEN_ENV)
            .stream()
            .filter(t::isSet)
            .toList();
    if (sources.isEmpty()) {
      throw InvalidFieldException.of(
          t.key(TokenOptions.TOKEN), "missing (expected: " + SOURCES + ")");
    }
    if (sources.size() > 1) {
      throw InvalidFieldException.of(
          t.key(sources.get(1)),
          "set together with " + sources.get(0).name() + " (expected: " + SOURCES + ")");
    }
    String key;
    String secret;
    if (t.isSet(TokenOptions.TOKEN)) {
      key = t.key(TokenOptions.TOKEN);
      secret = t.get(TokenOptions.TOKEN);
    } else if (t.isSet(TokenOptions.TOKEN_FILE)) {
      key = t.key(TokenOptions.TOKEN_FILE);
      Path file = t.optional(TokenOptions.TOKEN_FILE).orElseThrow();
      try {
        secret = Files.readString(file, StandardCharsets.UTF_8).strip();
      } catch (IOException | RuntimeException e) {
        throw new InvalidFieldException(
            key, file.toString(), "a readable file holding the token (" + e + ")");
      }
    } else {
      key = t.key(TokenOptions.TOKEN_ENV);
      String variable = t.optional(TokenOptions.TOKEN_ENV).orElseThrow();
      secret = variable.isEmpty() ? null : environment.apply(variable);
      if (secret == null || secret.isEmpty()) {
        throw new InvalidFieldException(
            key, variable, "the name of a set, non-empty environment variable");
      }
      secret = secret.strip();
    }
    if (secret.isEmpty() || !secret.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw InvalidFieldException.of(
          key,
          "not a usable token (expected: one or more printable ASCII characters"
              + " without spaces, such as the output of openssl rand -base64 32; the value is not shown)");
    }
    return secret;
  }
}
