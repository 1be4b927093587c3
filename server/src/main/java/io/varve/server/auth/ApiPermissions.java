package io.varve.server.auth;

import io.varve.core.error.PermissionDeniedException;
import io.varve.core.text.Characters;

/**
 * The permission check of an API call. Which permission each RPC needs is written beside its
 * handler, in the server's table of RPCs (the transport's {@code ApiCalls}).
 */
public final class ApiPermissions {

  private ApiPermissions() {}

  /**
   * Refuses the call of {@code rpc} unless {@code caller} has {@code needed} on {@code namespace}.
   *
   * @throws PermissionDeniedException naming the namespace, the permission missing and the RPC
   */
  public static void check(TokenGrant caller, String rpc, Permission needed, String namespace) {
    if (!caller.allows(needed, namespace)) {
      throw new PermissionDeniedException(
          "namespace",
          "namespace: "
              + shown(namespace)
              + " ("
              + rpc
              + " needs the "
              + needed.configName()
              + " permission on it; token "
              + caller
              + ")");
    }
  }

  private static String shown(String namespace) {
    return '"' + Characters.shortened(namespace, 80) + '"';
  }
}
