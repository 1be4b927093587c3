package io.varve.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.PermissionDeniedException;
import io.varve.core.error.VarveException;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Namespace patterns, grants, the permission check of a call, and token lookup. */
class TokenGrantTest {

  private static final TokenGrant ORDERS_WRITER =
      new TokenGrant(
          "orders-writer",
          "s1",
          Set.of(Permission.WRITE, Permission.READ),
          List.of(new NamespacePattern("orders"), new NamespacePattern("orders_*")));

  static Stream<Arguments> patterns() {
    return Stream.of(
        Arguments.of("orders", "orders", true),
        Arguments.of("orders", "orders_eu", false),
        Arguments.of("orders", "order", false),
        Arguments.of("orders_*", "orders_eu", true),
        Arguments.of("orders_*", "orders_", true),
        Arguments.of("orders_*", "orders", false),
        Arguments.of("orders_*", "ordersx", false),
        Arguments.of("*", "anything", true));
  }

  @ParameterizedTest(name = "{0} covers {1}: {2}")
  @MethodSource("patterns")
  void patterns_cover_names_and_prefixes(String pattern, String namespace, boolean covered) {
    assertThat(NamespacePattern.parse(pattern))
        .hasValueSatisfying(p -> assertThat(p.matches(namespace)).isEqualTo(covered));
  }

  @Test
  void patterns_refuse_what_is_not_a_name_or_a_trailing_star() {
    for (String bad :
        List.of("", "Orders", "*_eu", "ord*ers", "**", "orders-eu", "1orders", "orders_**")) {
      assertThat(NamespacePattern.parse(bad)).as(bad).isEmpty();
    }
  }

  @Test
  void a_denied_call_names_the_namespace_the_rpc_and_the_missing_permission() {
    ApiPermissions.check(ORDERS_WRITER, "WriteEventRecordsSync", Permission.WRITE, "orders_eu");

    assertThatThrownBy(
            () ->
                ApiPermissions.check(ORDERS_WRITER, "UpdateNamespace", Permission.ADMIN, "orders"))
        .isInstanceOfSatisfying(
            PermissionDeniedException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(VarveException.Kind.PERMISSION_DENIED);
              assertThat(e.field()).isEqualTo("namespace");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "namespace: \"orders\" (UpdateNamespace needs the admin permission"
                          + " on it; token orders-writer: [read, write] on [orders, orders_*])");
            });
    assertThatThrownBy(
            () ->
                ApiPermissions.check(
                    ORDERS_WRITER, "ReadEventRecords", Permission.READ, "payments"))
        .hasMessageContaining(
            "namespace: \"payments\" (ReadEventRecords needs the read permission");
  }

  @Test
  void the_verifier_finds_the_grant_of_a_configured_token_only() {
    TokenGrant other = new TokenGrant("metrics", "s2", Set.of(Permission.METRICS), List.of());
    TokenVerifier verifier = new TokenVerifier(List.of(ORDERS_WRITER, other));

    assertThat(verifier.verify("s1")).contains(ORDERS_WRITER);
    assertThat(verifier.verify("s2")).contains(other);
    assertThat(verifier.verify("s")).isEmpty();
    assertThat(verifier.verify("s1 ")).isEmpty();
    assertThat(verifier.verify("")).isEmpty();
    assertThat(verifier.verify(null)).isEmpty();
  }
}
