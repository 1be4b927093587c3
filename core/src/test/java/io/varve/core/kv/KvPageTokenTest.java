package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KvPageTokenTest {

  private static final ValueParts PARTS =
      new ValueParts(
          3,
          1 << 20,
          64L << 20,
          0xCAFEBABE,
          true,
          1_700_000_000_123_456L,
          ValueMetadata.chunked(
              "nonce-é", 64L << 20, ValueMetadata.Compression.ZSTD, 64, 1 << 20, 64L << 20, 42));

  @Test
  void a_token_inside_a_value_keeps_its_part_and_pinned_version() {
    KvPageToken token = new KvPageToken(new byte[] {1, 2, 3}, 7, 100, 5000, PARTS);

    KvPageToken decoded = KvPageToken.decode(token.encode(), "page_token");

    assertThat(decoded.lastKey()).containsExactly(1, 2, 3);
    assertThat(decoded.returnedSoFar()).isEqualTo(7);
    assertThat(decoded.largestItemBytes()).isEqualTo(5000);
    assertThat(decoded.inside()).isEqualTo(PARTS);
    assertThat(decoded.inside().count()).isEqualTo(64);
    assertThat(decoded.inside().start()).isEqualTo(3L << 20);
  }

  @Test
  void a_token_between_items_has_no_part_and_old_tokens_still_decode() {
    byte[] key = {9};
    KvPageToken plain = KvPageToken.decode(new KvPageToken(key, 1, 2, 3).encode(), "page_token");
    assertThat(plain.inside()).isNull();
    assertThat(plain.largestItemBytes()).isEqualTo(3);

    // a token of a server that wrote neither the largest size nor a part
    byte[] old =
        ByteBuffer.allocate(8 + 8 + 4 + 1).putLong(1).putLong(2).putInt(1).put(key).array();
    KvPageToken decoded = KvPageToken.decode(old, "page_token");
    assertThat(decoded.largestItemBytes()).isZero();
    assertThat(decoded.inside()).isNull();
  }

  @Test
  void a_truncated_or_out_of_range_part_is_refused_naming_the_field() {
    byte[] encoded = new KvPageToken(new byte[] {1}, 1, 1, 1, PARTS).encode();
    assertThatThrownBy(
            () -> KvPageToken.decode(Arrays.copyOf(encoded, encoded.length - 3), "page_token"))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("page_token");
    byte[] beyond = new KvPageToken(new byte[] {1}, 1, 1, 1, PARTS.at(64)).encode();
    assertThatThrownBy(() -> KvPageToken.decode(beyond, "page_token"))
        .isInstanceOf(InvalidFieldException.class);
  }
}
