package io.varve.server.auth;

import java.util.List;
import java.util.Set;

/**
 * One configured bearer token and what it may do. The secret never appears in {@link #toString}
 * (nor, through it, in the effective-configuration log line or an error).
 *
 * @param name shown in logs and in permission errors instead of the secret
 * @param secret the token the client sends as {@code Authorization: Bearer <secret>}
 * @param permissions what the token may do
 * @param namespaces where the namespaced permissions apply; empty when it has none
 */
public record TokenGrant(
    String name, String secret, Set<Permission> permissions, List<NamespacePattern> namespaces) {

  public TokenGrant {
    permissions = Set.copyOf(permissions);
    namespaces = List.copyOf(namespaces);
  }

  /**
   * A token of the plain {@code server.auth.bearerTokens} list: every permission on every
   * namespace.
   */
  public static TokenGrant fullAccess(String name, String secret) {
    return new TokenGrant(
        name, secret, Set.of(Permission.values()), List.of(new NamespacePattern("*")));
  }

  /** Whether the token has {@code permission} on {@code namespace}. */
  public boolean allows(Permission permission, String namespace) {
    return permissions.contains(permission)
        && namespaces.stream().anyMatch(p -> p.matches(namespace));
  }

  /**
   * Whether the token has a permission that is not about namespaces ({@code metrics}, {@code
   * docs}).
   */
  public boolean allows(Permission permission) {
    return permissions.contains(permission);
  }

  /**
   * The grant without its secret, e.g. {@code orders-writer: [read, write] on [orders, orders_*]}.
   */
  @Override
  public String toString() {
    return name
        + ": "
        + permissions.stream().sorted().map(Permission::configName).toList()
        + (namespaces.isEmpty() ? "" : " on " + namespaces);
  }
}
