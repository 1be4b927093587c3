package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.PutItemsRequest;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class PartedWritesTest {

  static final int MIB = 1024 * 1024;

  static Item item(String key, int size, long seed) {
    byte[] value = new byte[size];
    new Random(seed).nextBytes(value);
    return Item.newBuilder()
        .setKey(ByteString.copyFromUtf8(key))
        .setValue(ByteString.copyFrom(value))
        .build();
  }

  @Test
  void a_request_of_values_within_a_part_goes_whole() {
    PutItemsRequest r =
        PutItemsRequest.newBuilder().addItems(item("a", MIB, 1)).addItems(item("b", 10, 2)).build();
    assertThat(PartedWrites.plan(r, MIB)).isEmpty();
    assertThat(
            PartedWrites.mayPart(
                PutItemsRequest.newBuilder().addItems(item("c", 65536, 3)).build()))
        .isFalse();
  }

  @Test
  void large_values_are_cut_into_parts_staged_three_to_a_request_and_committed_with_the_rest() {
    Item large = item("large", 10 * MIB + 5, 4);
    Item compressed =
        item("zstd", 2 * MIB, 5).toBuilder()
            .setMetadata(ItemMetadata.newBuilder().setCompression("zstd"))
            .build();
    Item small = item("small", 100, 6);
    PutItemsRequest r =
        PutItemsRequest.newBuilder()
            .setNamespace("ns")
            .setId("id")
            .addItems(large)
            .addItems(small)
            .addItems(compressed)
            .build();
    List<PutItemsRequest> plan = PartedWrites.plan(r, MIB);
    // 11 parts of large and 2 of zstd: 13 parts, 3 per staging request, the last one with commits
    assertThat(plan).hasSize(5);
    for (PutItemsRequest request : plan.subList(0, 4)) {
      assertThat(request.getItemsList()).hasSize(3).allMatch(Item::hasChunk);
      assertThat(request.getSerializedSize()).isLessThan(4 * MIB);
      assertThat(request.getNamespace()).isEqualTo("ns");
    }
    PutItemsRequest last = plan.get(4);
    assertThat(last.getItemsList().stream().filter(Item::hasChunk).count()).isEqualTo(1);
    Item largeCommit = commit(last, "large");
    assertThat(largeCommit.getChunked().getChunkCount()).isEqualTo(11);
    assertThat(largeCommit.getChunked().getValueSize()).isEqualTo(10 * MIB + 5);
    CRC32C crc = new CRC32C();
    crc.update(large.getValue().toByteArray());
    assertThat(largeCommit.getChunked().getCrc32C()).isEqualTo((int) crc.getValue());
    assertThat(largeCommit.getValue().isEmpty()).isTrue();
    assertThat(commit(last, "zstd").getMetadata().getCompression()).isEqualTo("zstd");
    assertThat(last.getItemsList()).contains(small);

    // the parts put back together in index order are the value, each at most a part
    ByteString joined = ByteString.EMPTY;
    for (int c = 0; c < 11; c++) {
      int index = c;
      Item part =
          plan.stream()
              .flatMap(p -> p.getItemsList().stream())
              .filter(i -> i.hasChunk() && i.getChunk() == index)
              .filter(i -> i.getKey().toStringUtf8().equals("large"))
              .findFirst()
              .orElseThrow();
      assertThat(part.getValue().size()).isLessThanOrEqualTo(MIB);
      joined = joined.concat(part.getValue());
    }
    assertThat(joined).isEqualTo(large.getValue());
  }

  private static Item commit(PutItemsRequest r, String key) {
    return r.getItemsList().stream()
        .filter(i -> i.hasChunked() && i.getKey().toStringUtf8().equals(key))
        .findFirst()
        .orElseThrow();
  }
}
