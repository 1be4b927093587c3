package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.core.error.InvalidFieldException;
import io.varve.server.auth.AuthSettings;
import io.varve.server.auth.NamespacePattern;
import io.varve.server.auth.Permission;
import io.varve.server.auth.TokenGrant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code server.auth}: tokens, their sources, permissions and namespaces, and the errors naming the
 * key.
 */
class AuthConfigTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Map<String, String> ENV =
      Map.of("ORDERS_TOKEN", "env-secret-1\n", "EMPTY", "");

  private static AuthSettings parse(String yaml) {
    try {
      ObjectNode root = YAML.createObjectNode();
      root.putObject("server").set("auth", YAML.readTree(yaml));
      return ServerSettings.parse(root, ENV::get).auth();
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void reads_tokens_with_their_permissions_and_namespaces() {
    AuthSettings auth =
        parse(
            """
        bearerTokens: [root-secret]
        tokens:
          - name: orders-ingest
            token: literal-secret
            permissions: [write, read]
            namespaces: [orders, "orders_*"]
          - name: prometheus
            tokenEnv: ORDERS_TOKEN
            permissions: [metrics]
        authenticateMetrics: true
        """);

    assertThat(auth.tokens())
        .containsExactly(
            TokenGrant.fullAccess("bearerTokens[0]", "root-secret"),
            new TokenGrant(
                "orders-ingest",
                "literal-secret",
                Set.of(Permission.WRITE, Permission.READ),
                List.of(new NamespacePattern("orders"), new NamespacePattern("orders_*"))),
            new TokenGrant("prometheus", "env-secret-1", Set.of(Permission.METRICS), List.of()));
    assertThat(auth.authenticateMetrics()).isTrue();
    assertThat(auth.authenticateDocs()).isFalse();
  }

  @Test
  void reads_a_token_from_a_file_without_its_final_newline(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("token");
    Files.writeString(file, "file-secret\n");

    AuthSettings auth =
        parse("tokens:\n  - {name: a, tokenFile: " + file + ", permissions: [docs]}");

    assertThat(auth.tokens())
        .singleElement()
        .extracting(TokenGrant::secret)
        .isEqualTo("file-secret");
  }

  @Test
  void plain_bearer_tokens_keep_full_access() {
    TokenGrant root = parse("bearerTokens: [root-secret]").tokens().get(0);

    for (Permission p : Permission.values()) {
      assertThat(root.allows(p, "any_namespace")).as(p.configName()).isTrue();
      assertThat(root.allows(p)).as(p.configName()).isTrue();
    }
  }

  @Test
  void the_description_names_tokens_but_never_shows_a_secret() {
    AuthSettings auth =
        parse(
            """
        bearerTokens: [root-secret]
        tokens:
          - {name: orders-ingest, token: literal-secret, permissions: [write], namespaces: ["orders_*"]}
        """);

    assertThat(auth.describe())
        .contains("orders-ingest: [write] on [orders_*]", "bearerTokens[0]")
        .doesNotContain("root-secret", "literal-secret");
    assertThat(auth.toString()).doesNotContain("root-secret", "literal-secret");
    assertThat(auth.tokens().get(1).toString()).doesNotContain("literal-secret");
  }

  static Stream<Arguments> refused() {
    String ok = "    permissions: [read]\n    namespaces: [orders]\n";
    return Stream.of(
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n" + ok + "    namespace: [x]",
            "server.auth.tokens[0].namespace",
            "unknown key"),
        Arguments.of(
            "tokens: secret-by-mistake", "server.auth.tokens", "expected: a list of mappings"),
        Arguments.of("tokens: [secret-by-mistake]", "server.auth.tokens[0]", "expected: a mapping"),
        Arguments.of("tokens:\n  - token: s\n" + ok, "server.auth.tokens[0].name", "missing"),
        Arguments.of(
            "tokens:\n  - name: 'has space'\n    token: s\n" + ok,
            "server.auth.tokens[0].name",
            "[A-Za-z0-9]"),
        Arguments.of(
            "tokens:\n  - name: a\n" + ok,
            "server.auth.tokens[0].token",
            "missing (expected: exactly one of token, tokenFile, tokenEnv)"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    tokenEnv: ORDERS_TOKEN\n" + ok,
            "server.auth.tokens[0].tokenEnv",
            "set together with token (expected: exactly one of"),
        Arguments.of(
            "tokens:\n  - name: a\n    tokenEnv: NOT_SET\n" + ok,
            "server.auth.tokens[0].tokenEnv",
            "a set, non-empty environment variable"),
        Arguments.of(
            "tokens:\n  - name: a\n    tokenEnv: EMPTY\n" + ok,
            "server.auth.tokens[0].tokenEnv",
            "a set, non-empty environment variable"),
        Arguments.of(
            "tokens:\n  - name: a\n    tokenFile: /nonexistent/token\n" + ok,
            "server.auth.tokens[0].tokenFile",
            "a readable file"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: 'two words'\n" + ok,
            "server.auth.tokens[0].token",
            "the value is not shown"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    namespaces: [orders]",
            "server.auth.tokens[0].permissions",
            "missing or empty (expected: a list of read, write, admin, metrics, docs)"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: []\n    namespaces: [orders]",
            "server.auth.tokens[0].permissions",
            "missing or empty"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [read, raed]\n    namespaces: [orders]",
            "server.auth.tokens[0].permissions[1]",
            "\"raed\" (expected: one of read, write, admin, metrics, docs)"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [read]",
            "server.auth.tokens[0].namespaces",
            "missing or empty"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [write]\n    namespaces: []",
            "server.auth.tokens[0].namespaces",
            "missing or empty"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [metrics]\n    namespaces: [orders]",
            "server.auth.tokens[0].namespaces",
            "apply to no namespace"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [read]\n    namespaces: [Orders]",
            "server.auth.tokens[0].namespaces[0]",
            "\"Orders\" (expected: a namespace name"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [read]\n    namespaces: [orders, \"*_eu\"]",
            "server.auth.tokens[0].namespaces[1]",
            "a prefix followed by *"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n    permissions: [read]\n    namespaces: [\"ord*ers\"]",
            "server.auth.tokens[0].namespaces[0]",
            "a prefix followed by *"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: s\n" + ok + "  - name: a\n    token: t\n" + ok,
            "server.auth.tokens[1].name",
            "a name not used by server.auth.tokens[0].name"),
        Arguments.of(
            "tokens:\n  - name: a\n    token: same\n" + ok + "  - name: b\n    token: same\n" + ok,
            "server.auth.tokens[1]",
            "the same token as server.auth.tokens[0]"),
        Arguments.of(
            "bearerTokens: [same]\ntokens:\n  - name: b\n    token: same\n" + ok,
            "server.auth.tokens[0]",
            "the same token as server.auth.bearerTokens[0]"),
        Arguments.of(
            "authenticateMetrics: true",
            "server.auth.authenticateMetrics",
            "unless bearerTokens or tokens"),
        Arguments.of(
            "bearerTokens: [x]\nauthenticateDocs: yes-please",
            "server.auth.authenticateDocs",
            "true or false"));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource("refused")
  void refuses_bad_entries_naming_the_key(String yaml, String field, String message) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage())
                  .startsWith(field + ": ")
                  .contains(message)
                  .doesNotContain("literal-secret", "env-secret-1", "two words", "same\"");
            });
  }

  @Test
  void the_server_file_reads_the_section(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("varve.yaml");
    Files.writeString(
        file,
        """
        server:
          auth:
            tokens:
              - {name: reader, token: r-secret, permissions: [read], namespaces: ["*"]}
        """);

    ServerSettings settings = ServerSettings.load(file);

    assertThat(settings.auth().enabled()).isTrue();
    assertThat(settings.auth().tokens()).extracting(TokenGrant::name).containsExactly("reader");
    assertThat(settings.describe()).contains("reader: [read] on [*]").doesNotContain("r-secret");
  }
}
