package io.varve.server.auth;

import io.varve.core.error.PermissionDeniedException;
import java.util.Map;

/**
 * Which permission each RPC needs on the namespace its request names. ListNamespaces needs none:
 * it answers only the namespaces the caller may {@link Permission#READ}.
 */
public final class ApiPermissions {

  /** RPC name to the permission it needs on the request's {@code namespace}. */
  public static final Map<String, Permission> BY_RPC = Map.of(
      "GetNamespace", Permission.READ,
      "ReadEventRecords", Permission.READ,
      "SearchEventRecords", Permission.READ,
      "AggregateEventRecords", Permission.READ,
      "WriteEventRecordsSync", Permission.WRITE,
      "CreateNamespace", Permission.ADMIN,
      "UpdateNamespace", Permission.ADMIN,
      "BackfillIndex", Permission.ADMIN);

  private ApiPermissions() {}

  /**
   * Refuses the call unless {@code caller} may make it on {@code namespace}.
   *
   * @throws PermissionDeniedException naming the namespace, the permission missing and the RPC
   * @throws IllegalArgumentException for an RPC missing from {@link #BY_RPC} (a defect)
   */
  public static void check(TokenGrant caller, String rpc, String namespace) {
    Permission needed = BY_RPC.get(rpc);
    if (needed == null) {
      throw new IllegalArgumentException("no permission defined for RPC " + rpc);
    }
    if (!caller.allows(needed, namespace)) {
      throw new PermissionDeniedException("namespace", "namespace: " + shown(namespace) + " (" + rpc + " needs the "
          + needed.configName() + " permission on it; token " + caller + ")");
    }
  }

  /** Whether ListNamespaces shows {@code namespace} to {@code caller}. */
  public static boolean listed(TokenGrant caller, String namespace) {
    return caller.allows(Permission.READ, namespace);
  }

  private static String shown(String namespace) {
    return '"' + (namespace.length() > 80 ? namespace.substring(0, 77) + "..." : namespace) + '"';
  }
}
