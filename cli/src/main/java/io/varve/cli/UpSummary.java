package io.varve.cli;

import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.server.LocalVarveServerSettings;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code varve up} prints once the server answers: where the API is and, for {@code up
 * --secure}, what a client needs to call it. Secrets are never printed, only the files that hold
 * them: the output of {@code up} ends up in terminals' scrollback and CI logs.
 */
final class UpSummary {

  private UpSummary() {}

  /**
   * Prints where the first server's API is, what a client needs, and the other servers' addresses
   * ({@code up --servers N}) with the Java client's call that takes them all.
   */
  static void print(
      List<LocalVarveServerSettings> servers, Optional<LocalCassandraSecurity> security) {
    print(servers.get(0), security);
    if (servers.size() > 1) {
      System.out.println("  the same namespaces on " + servers.size() + " servers:");
      for (int k = 1; k <= servers.size(); k++) {
        LocalVarveServerSettings server = servers.get(k - 1);
        System.out.println(
            "    server " + k + ": " + server.endpoint() + " (log " + server.log() + ")");
      }
      System.out.println(
          "  Java client: VarveClient.builder().endpoints("
              + servers.stream()
                  .map(s -> "\"" + s.endpoint().getHost() + ":" + s.endpoint().getPort() + "\"")
                  .collect(Collectors.joining(", "))
              + ")");
    }
  }

  static void print(LocalVarveServerSettings server, Optional<LocalCassandraSecurity> security) {
    String api = server.endpoint().toString();
    System.out.println("varve: ready");
    if (security.isEmpty()) {
      System.out.println("  API (gRPC and HTTP/JSON POST /v1/<RpcName>): " + api);
    } else {
      LocalCassandraSecurity s = security.get();
      System.out.println("  API (gRPC and HTTP/JSON POST /v1/<RpcName>), TLS only: " + api);
      System.out.println("  certificate authority to trust: " + s.caPem());
      System.out.println("  bearer token, needed by every call: in " + s.apiTokenFile());
      System.out.println(
          "  Cassandra: TLS only, role "
              + LocalCassandraSecurity.ROLE
              + " (password in "
              + s.rolePasswordFile()
              + "), truststore "
              + s.truststore());
      System.out.println(
          "  try: curl --cacert "
              + s.caPem()
              + " -H \"Authorization: Bearer $(cat "
              + s.apiTokenFile()
              + ")\" -H 'Content-Type: application/json' -d '{}' "
              + api
              + "/v1/ListNamespaces");
      System.out.println(
          "  Java client: VarveClient.builder().endpoint(URI.create(\""
              + api
              + "\")).tls(Path.of(\""
              + s.caPem()
              + "\")).bearerToken(<the token>) (client/README.md)");
      System.out.println("  server configuration: " + server.home().resolve("up.yaml"));
    }
    System.out.println("  browsable API page: " + api + "/docs/");
    System.out.println("  log: " + server.log());
  }
}
