package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.VarveException;
import org.junit.jupiter.api.Test;

/** {@link BytePage} under a client's message bound ({@link ResponseBound}). */
class BytePageBoundTest {

  private static final int MIB = 1 << 20;
  private static final ResponseBound GRPC = new ResponseBound(4 * MIB, "gRPC's usual limit", 0);
  private static final ResponseBound PARTS = new ResponseBound(4 * MIB, "gRPC's usual limit", MIB);
  private static final byte[] KEY = "k0000001".getBytes();

  @Test
  void a_page_of_small_items_stops_before_the_message_bound_whatever_its_byte_bound() {
    BytePage page = new BytePage(16 * MIB, Long.MAX_VALUE, GRPC);
    int taken = 0;
    while (page.offer(KEY, KEY.length + 100)) {
      taken++;
    }
    long message =
        page.bytes()
            + (long) taken * ResponseBound.ITEM_OVERHEAD_BYTES
            + ResponseBound.RESERVE_BYTES;
    assertThat(message).isLessThanOrEqualTo(4 * MIB);
    assertThat(message + KEY.length + 100 + ResponseBound.ITEM_OVERHEAD_BYTES)
        .isGreaterThan(4 * MIB);
    assertThat(page.more()).isTrue();
    assertThat(page.inParts()).isFalse();
  }

  @Test
  void a_first_item_that_fits_no_message_is_refused_naming_key_size_and_signals() {
    BytePage page = new BytePage(16 * MIB, Long.MAX_VALUE, GRPC);

    assertThatThrownBy(() -> page.offer(KEY, 5L * MIB))
        .isInstanceOfSatisfying(
            VarveException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(VarveException.Kind.FAILED_PRECONDITION);
              assertThat(e.getMessage())
                  .contains("\"k0000001\"", Long.toString(5L * MIB - KEY.length), "4194304")
                  .contains("gRPC's usual limit", "{\"chunking\": {}}", "maxBytes");
            });
  }

  @Test
  void a_value_larger_than_a_part_starts_its_own_page_and_is_its_only_item() {
    BytePage full = new BytePage(16 * MIB, Long.MAX_VALUE, PARTS);
    assertThat(full.offer(KEY, 200)).isTrue();
    assertThat(full.offer(KEY, MIB + 100)).as("stops before the value in parts").isFalse();
    assertThat(full.more()).isTrue();
    assertThat(full.inParts()).isFalse();

    BytePage alone = new BytePage(16 * MIB, 1, PARTS);
    assertThat(alone.offer(KEY, MIB + 100)).isTrue();
    assertThat(alone.inParts()).isTrue();
    assertThat(alone.more()).as("the next page continues the value, item limit or not").isTrue();
    assertThat(alone.offer(KEY, 10)).isFalse();
  }

  @Test
  void parts_fit_the_message_and_the_clients_part_size() {
    assertThat(PARTS.partBytes(KEY.length)).isEqualTo(MIB);
    ResponseBound small = new ResponseBound(64 * 1024, "signals.messages.maxBytes", 64 * MIB);
    int part = small.partBytes(4096);
    assertThat((long) part + 4096 + ResponseBound.ITEM_OVERHEAD_BYTES + ResponseBound.RESERVE_BYTES)
        .isLessThanOrEqualTo(64 * 1024);
    assertThat(small.inParts(4096, 4096 + part + 1L)).isTrue();
  }

  @Test
  void without_a_bound_pages_are_as_before() {
    BytePage page = new BytePage(10, 100, ResponseBound.NONE);
    assertThat(page.offer(KEY, 64L * MIB)).isTrue();
    assertThat(page.inParts()).isFalse();
    assertThat(page.offer(KEY, 1)).isFalse();
  }
}
