package io.varve.client.internal;

import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.PutItemsRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * How a PutItems with large values goes in the chunked protocol (docs/key-value.md, "Large values
 * in parts"): every value larger than the server's part size is cut into parts of that size, staged
 * by several PutItems under the request's idempotency token, then committed by a last PutItems that
 * carries the commits, the last parts and the request's other items. No message holds more than
 * about {@value #REQUEST_BYTES} bytes of parts; whatever the value's size, the server never gets a
 * message of 64 MiB to buffer. Stateless.
 */
public final class PartedWrites {

  /** Bytes of parts one staging request carries, about. */
  public static final int REQUEST_BYTES = 4 * 1024 * 1024;

  /** Staging requests in flight at once for one PutItems. */
  public static final int IN_FLIGHT = 4;

  /**
   * Values of at most this many bytes never go in parts (the smallest part a server takes is
   * larger): a PutItems of small values skips the plan without a look at the server's signals.
   */
  public static final int NEVER_PARTED_BYTES = 64 * 1024;

  /** Whether any value of {@code request} may go in parts. */
  public static boolean mayPart(PutItemsRequest request) {
    for (Item item : request.getItemsList()) {
      if (item.getValue().size() > NEVER_PARTED_BYTES) {
        return true;
      }
    }
    return false;
  }

  private PartedWrites() {}

  /**
   * The requests of {@code request} in the chunked protocol: the staging requests (which may go in
   * any order, side by side), then the last one, which commits. Empty when no value exceeds {@code
   * partBytes}: the request goes whole.
   */
  public static List<PutItemsRequest> plan(PutItemsRequest request, int partBytes) {
    if (request.getItemsList().stream().noneMatch(i -> i.getValue().size() > partBytes)) {
      return List.of();
    }
    int perRequest = Math.max(1, REQUEST_BYTES / partBytes - 1);
    PutItemsRequest empty = request.toBuilder().clearItems().build();
    List<PutItemsRequest> requests = new ArrayList<>();
    PutItemsRequest.Builder last = empty.toBuilder();
    List<Item> pending = new ArrayList<>();
    for (Item item : request.getItemsList()) {
      if (item.getValue().size() <= partBytes) {
        last.addItems(item);
        continue;
      }
      int size = item.getValue().size();
      int count = (size + partBytes - 1) / partBytes;
      for (int c = 0; c < count; c++) {
        int from = c * partBytes;
        pending.add(
            Item.newBuilder()
                .setKey(item.getKey())
                .setChunk(c)
                .setValue(item.getValue().substring(from, Math.min(size, from + partBytes)))
                .build());
        if (pending.size() == perRequest) {
          requests.add(empty.toBuilder().addAllItems(pending).build());
          pending.clear();
        }
      }
      CRC32C crc = new CRC32C();
      item.getValue().asReadOnlyByteBufferList().forEach(crc::update);
      Item.Builder commit =
          Item.newBuilder()
              .setKey(item.getKey())
              .setChunked(
                  ChunkedValue.newBuilder()
                      .setChunkCount(count)
                      .setValueSize(size)
                      .setCrc32C((int) crc.getValue()));
      if (item.hasMetadata()) {
        commit.setMetadata(item.getMetadata());
      }
      last.addItems(commit);
    }
    // the last parts go with the commits: a value of two parts is one request
    requests.add(last.addAllItems(pending).build());
    return requests;
  }
}
