package io.varve.core.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import java.util.Arrays;
import java.util.Base64;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PageTokensTest {

  private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(UTF_8);
  private static final PageTokens TOKENS = new PageTokens(KEY);
  private static final byte[] REQUEST =
      PageTokens.fingerprint("orders", "series-1", "1709251200000", "1709337600000", "", "1000");
  private static final PageTokens.Position POSITION =
      new PageTokens.Position(new Cursor(1_709_300_000_123L, "evt-42"), 100);

  private static void assertRefused(ThrowingCallable decode) {
    assertThatThrownBy(decode)
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo("pageToken");
              assertThat(e.kind()).isEqualTo(VarveException.Kind.INVALID_ARGUMENT);
              assertThat(e.getMessage()).startsWith("pageToken: ");
            });
  }

  static Stream<PageTokens.Position> positions() {
    return Stream.of(
        POSITION,
        new PageTokens.Position(new Cursor(0, "a"), 0),
        new PageTokens.Position(new Cursor(-1, "before-the-epoch"), 1),
        new PageTokens.Position(new Cursor(Long.MAX_VALUE, "événement-😀"), Integer.MAX_VALUE),
        new PageTokens.Position(new Cursor(Long.MIN_VALUE, "x".repeat(128)), 999));
  }

  @ParameterizedTest
  @MethodSource("positions")
  void decodes_what_it_encoded(PageTokens.Position position) {
    String token = TOKENS.encode(REQUEST, position);

    assertThat(token).matches("[A-Za-z0-9_-]+"); // safe in a URL or a header, unpadded
    assertThat(TOKENS.decode(REQUEST, token)).isEqualTo(position);
    // another server of the deployment shares the key
    assertThat(new PageTokens(KEY.clone()).decode(REQUEST, token)).isEqualTo(position);
  }

  @Test
  void refuses_token_changed_in_any_byte() {
    byte[] raw = Base64.getUrlDecoder().decode(TOKENS.encode(REQUEST, POSITION));
    for (int i = 0; i < raw.length; i++) {
      for (int flip : new int[] {0x01, 0x80, 0xff}) {
        byte[] changed = raw.clone();
        changed[i] ^= (byte) flip;
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(changed);
        assertRefused(() -> TOKENS.decode(REQUEST, token));
      }
    }
  }

  @Test
  void refuses_truncated_or_extended_token() {
    byte[] raw = Base64.getUrlDecoder().decode(TOKENS.encode(REQUEST, POSITION));
    for (int length = 0; length < raw.length; length++) {
      String token =
          Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(raw, length));
      assertRefused(() -> TOKENS.decode(REQUEST, token));
    }
    String longer =
        Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(raw, raw.length + 1));
    assertRefused(() -> TOKENS.decode(REQUEST, longer));
  }

  static Stream<Arguments> otherRequests() {
    return Stream.of(
        Arguments.of(
            "other namespace",
            PageTokens.fingerprint(
                "payments", "series-1", "1709251200000", "1709337600000", "", "1000")),
        Arguments.of(
            "other series",
            PageTokens.fingerprint(
                "orders", "series-2", "1709251200000", "1709337600000", "", "1000")),
        Arguments.of(
            "other interval",
            PageTokens.fingerprint(
                "orders", "series-1", "1709251200000", "1709337600001", "", "1000")),
        Arguments.of(
            "other filters",
            PageTokens.fingerprint(
                "orders", "series-1", "1709251200000", "1709337600000", "k=v", "1000")),
        // the same characters split differently between the parts
        Arguments.of(
            "parts shifted",
            PageTokens.fingerprint(
                "orders", "series-1", "1709251200000", "1709337600000", "1", "000")),
        Arguments.of(
            "fewer parts",
            PageTokens.fingerprint(
                "orders", "series-1", "1709251200000", "1709337600000", "1000")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("otherRequests")
  void refuses_token_of_another_request(String description, byte[] otherRequest) {
    String token = TOKENS.encode(REQUEST, POSITION);

    assertThat(otherRequest).isNotEqualTo(REQUEST);
    assertRefused(() -> TOKENS.decode(otherRequest, token));
  }

  @Test
  void refuses_token_made_under_another_key() {
    String token =
        new PageTokens("another-deployment-key-of-32-byt".getBytes(UTF_8))
            .encode(REQUEST, POSITION);

    assertRefused(() -> TOKENS.decode(REQUEST, token));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "not a page token",
        "!!!!",
        "AAAA",
        "A",
        "abc=def",
        "AQAAAY4N/+9bAAAAZAAAAAZldnQtNDI+", // standard (not URL-safe) base64 alphabet
        "AQAAAY4N_-9bAAAAZAAAAAZldnQtNDIAAAAAAAAAAAAAAAAAAAAAAA"
      })
  void refuses_garbage(String token) {
    assertRefused(() -> TOKENS.decode(REQUEST, token));
  }

  @Test
  void refuses_key_shorter_than_16_bytes() {
    assertThatThrownBy(() -> new PageTokens(new byte[15]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
