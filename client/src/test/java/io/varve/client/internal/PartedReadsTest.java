package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.zip.CRC32C;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What the Java client does with the parts a server returns, whatever they claim: a value put
 * together from parts read one after the other or side by side, and parts that do not add up
 * refused DATA_LOSS before anything is held for them.
 */
class PartedReadsTest {

  private static final ByteString KEY = ByteString.copyFromUtf8("k");

  private static final int PART = PartedReads.MIN_PART_BYTES;

  @Test
  void parts_read_one_after_the_other_give_the_value_and_the_last_parts_token() {
    byte[] value = random(2 * PART + 1000);
    List<GetItemsResponse> pages = parts(value, PART, "end");
    List<String> asked = new ArrayList<>();
    GetItemsResponse whole = read(pages.get(0), byToken(pages, asked));
    assertThat(whole.getItemsCount()).isEqualTo(1);
    assertThat(whole.getItems(0).getValue().toByteArray()).isEqualTo(value);
    assertThat(whole.getItems(0).hasChunk()).isFalse();
    assertThat(whole.getItems(0).hasChunked()).isFalse();
    assertThat(whole.getNextPageToken()).isEqualTo("end");
    assertThat(asked).containsExactly("part-1", "part-2");
  }

  @Test
  void parts_read_side_by_side_give_the_value() {
    byte[] value = random(4 * PART + 7);
    List<GetItemsResponse> pages = parts(value, PART, "");
    // lanes of stride 2: part 0's page names parts 1 and 2, each part the one two ahead
    List<GetItemsResponse> laned = new ArrayList<>();
    for (int i = 0; i < pages.size(); i++) {
      GetItemsResponse.Builder page = pages.get(i).toBuilder().clearNextPageToken();
      if (i == 0) {
        page.addPartPageTokens("part-1").addPartPageTokens("part-2");
      } else if (i + 2 < pages.size()) {
        page.addPartPageTokens("part-" + (i + 2));
      }
      laned.add(page.build());
    }
    List<String> asked = new ArrayList<>();
    GetItemsResponse whole = read(laned.get(0), byToken(laned, asked));
    assertThat(whole.getItems(0).getValue().toByteArray()).isEqualTo(value);
    assertThat(asked).containsExactlyInAnyOrder("part-1", "part-2", "part-3", "part-4");
  }

  @Test
  void a_part_count_that_cannot_hold_the_value_is_refused_before_anything_is_held() {
    // a server (or anything between) that claims two billion parts of a small value must not make
    // the client allocate for them
    for (ChunkedValue claim :
        List.of(
            chunked(Integer.MAX_VALUE, 16, 1),
            // parts of one byte would add up: 65 MiB of them is a list of 68 million entries
            chunked((int) PartedReads.MAX_VALUE_BYTES, PartedReads.MAX_VALUE_BYTES, 1),
            chunked(3, 16, 4),
            chunked(2, 16, 0),
            chunked(1, 16, 8),
            chunked(1, PartedReads.MAX_VALUE_BYTES + 1, (int) PartedReads.MAX_VALUE_BYTES + 1))) {
      GetItemsResponse page =
          GetItemsResponse.newBuilder()
              .addItems(
                  Item.newBuilder()
                      .setKey(KEY)
                      .setChunk(0)
                      .setChunked(claim)
                      .setValue(ByteString.copyFrom(new byte[8])))
              .setNextPageToken("part-1")
              .build();
      assertDataLoss(() -> PartedReads.whole(page, t -> fail()), false, "that add up to its size");
    }
  }

  @Test
  void a_corrupt_part_is_refused_by_the_values_checksum() {
    byte[] value = random(2 * PART + 500);
    List<GetItemsResponse> pages = new ArrayList<>(parts(value, PART, ""));
    byte[] corrupt = pages.get(1).getItems(0).getValue().toByteArray();
    corrupt[100] ^= 1;
    withValue(pages, 1, ByteString.copyFrom(corrupt));
    assertDataLoss(() -> read(pages.get(0), byToken(pages, new ArrayList<>())), true, "CRC32C");
  }

  @Test
  void a_part_of_the_wrong_size_is_refused() {
    byte[] value = random(2 * PART + 500);
    List<GetItemsResponse> pages = new ArrayList<>(parts(value, PART, ""));
    GetItemsResponse.Builder laned = pages.get(0).toBuilder().clearNextPageToken();
    laned.addPartPageTokens("part-1").addPartPageTokens("part-2");
    pages.set(0, laned.build());
    withValue(pages, 1, pages.get(1).getItems(0).getValue().substring(0, PART - 100));
    assertDataLoss(
        () -> read(pages.get(0), byToken(pages, new ArrayList<>())),
        true,
        "part 1 of a value read in parts does not match its first part");
  }

  /**
   * Asserts that {@code call} fails DATA_LOSS with a description holding {@code description}: at
   * once, or, {@code afterParts}, as the cause of the read's completion.
   */
  private static void assertDataLoss(
      ThrowingCallable call, boolean afterParts, String description) {
    assertThatThrownBy(call)
        .satisfies(
            thrown -> {
              if (afterParts) {
                assertThat(thrown).isInstanceOf(CompletionException.class);
              }
              assertThat(afterParts ? thrown.getCause() : thrown)
                  .isInstanceOfSatisfying(
                      StatusRuntimeException.class,
                      e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DATA_LOSS);
                        assertThat(e.getStatus().getDescription()).contains(description);
                      });
            });
  }

  /** Replaces the value of the part on page {@code index} of {@code pages}. */
  private static void withValue(List<GetItemsResponse> pages, int index, ByteString value) {
    GetItemsResponse page = pages.get(index);
    pages.set(
        index, page.toBuilder().setItems(0, page.getItems(0).toBuilder().setValue(value)).build());
  }

  /** Pages of one part each of {@code value}, part i's page token naming part i + 1. */
  private static List<GetItemsResponse> parts(byte[] value, int partBytes, String lastToken) {
    int count = (value.length + partBytes - 1) / partBytes;
    CRC32C crc = new CRC32C();
    crc.update(value);
    ChunkedValue whole =
        ChunkedValue.newBuilder()
            .setChunkCount(count)
            .setChunkSize(partBytes)
            .setValueSize(value.length)
            .setCrc32C((int) crc.getValue())
            .build();
    List<GetItemsResponse> pages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int from = i * partBytes;
      pages.add(
          GetItemsResponse.newBuilder()
              .addItems(
                  Item.newBuilder()
                      .setKey(KEY)
                      .setChunk(i)
                      .setChunked(whole)
                      .setValue(
                          ByteString.copyFrom(
                              value, from, Math.min(partBytes, value.length - from))))
              .setNextPageToken(i == count - 1 ? lastToken : "part-" + (i + 1))
              .build());
    }
    return pages;
  }

  private static GetItemsResponse read(
      GetItemsResponse page, Function<String, CompletionStage<GetItemsResponse>> next) {
    return PartedReads.whole(page, next).toCompletableFuture().join();
  }

  private static Function<String, CompletionStage<GetItemsResponse>> byToken(
      List<GetItemsResponse> pages, List<String> asked) {
    return token -> {
      synchronized (asked) {
        asked.add(token);
      }
      return CompletableFuture.completedFuture(
          pages.get(Integer.parseInt(token.substring("part-".length()))));
    };
  }

  private static ChunkedValue chunked(int count, long valueSize, int chunkSize) {
    return ChunkedValue.newBuilder()
        .setChunkCount(count)
        .setValueSize(valueSize)
        .setChunkSize(chunkSize)
        .build();
  }

  private static CompletionStage<GetItemsResponse> fail() {
    throw new AssertionError("no part may be asked for");
  }

  private static byte[] random(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }
}
