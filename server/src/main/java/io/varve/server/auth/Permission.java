package io.varve.server.auth;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a token may do. {@link #READ}, {@link #WRITE} and {@link #ADMIN} apply to the namespaces the
 * token lists; {@link #METRICS} and {@link #DOCS} to the server's {@code /metrics} and {@code
 * /docs/} pages when their authentication is on. No permission implies another. Which one each RPC
 * needs is written beside its handler (the transport's {@code ApiCalls}) and listed in docs/api.md.
 */
public enum Permission {
  /** Reading a namespace: its data and its configuration; ListNamespaces shows these namespaces. */
  READ(true),
  /** Writing data to a namespace. */
  WRITE(true),
  /** Creating and changing a namespace, and filling its index again. */
  ADMIN(true),
  /** {@code GET /metrics}, when {@code server.auth.authenticateMetrics} is on. */
  METRICS(false),
  /** The API page {@code /docs/}, when {@code server.auth.authenticateDocs} is on. */
  DOCS(false);

  private final boolean namespaced;

  Permission(boolean namespaced) {
    this.namespaced = namespaced;
  }

  /** Whether the permission applies to namespaces (and so needs a list of them). */
  public boolean namespaced() {
    return namespaced;
  }

  /** The name used in the configuration and in messages: {@code read}, {@code write}, ... */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The permission of a configuration name, if any. */
  public static Optional<Permission> ofConfigName(String name) {
    return Arrays.stream(values()).filter(p -> p.configName().equals(name)).findFirst();
  }

  /**
   * The configuration names, for "expected" messages: {@code read, write, admin, metrics, docs}.
   */
  public static String configNames() {
    return Arrays.stream(values()).map(Permission::configName).collect(Collectors.joining(", "));
  }
}
