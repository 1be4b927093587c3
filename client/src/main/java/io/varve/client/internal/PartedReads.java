package io.varve.client.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.grpc.Status;
import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * Reads values that GetItems returns in parts (docs/key-value.md, "Large values in parts") and
 * gives them back whole: a page whose last item is a part of a value is followed, by its page
 * tokens, until the value's last part; the parts are put together, checked against the value's size
 * and CRC32C, and the page returned with the whole value and the last part's page token. Callers
 * never see parts. What it puts together is bounded by {@link #MAX_VALUE_BYTES}.
 */
public final class PartedReads {

  /** Bytes of the parts this client asks for. */
  public static final int PART_BYTES = 4 * 1024 * 1024;

  /**
   * The largest value put together: the largest the server stores ({@code kv.chunks.maxValueBytes}
   * at most 64 MiB) with a margin.
   */
  public static final long MAX_VALUE_BYTES = 65L * 1024 * 1024;

  /**
   * The smallest part (but the last) this client takes: it asks for {@link #PART_BYTES}, and a
   * server cuts smaller ones only to fit a smaller message bound, never below 64 KiB less a
   * message's overhead. Bounds the parts a value may claim, so the parts' list held for a value
   * stays small (at most {@link #MAX_VALUE_BYTES} / 16 KiB entries).
   */
  public static final int MIN_PART_BYTES = 16 * 1024;

  /**
   * The signals of a read that takes values in parts of {@link #PART_BYTES}, and messages of any
   * size this client takes (its channels set no inbound limit).
   */
  public static final Map<String, Struct> SIGNALS =
      Map.of(
          "chunking", struct("maxChunkBytes", PART_BYTES),
          "messages", struct("maxBytes", Integer.MAX_VALUE));

  /** The signals of a scan: messages of any size, values whole (a scan does not send parts). */
  public static final Map<String, Struct> SCAN_SIGNALS =
      Map.of("messages", struct("maxBytes", Integer.MAX_VALUE));

  private PartedReads() {}

  /**
   * {@code page} with its last item whole: when that item is a part, the next ones are read by
   * {@code next} (a page token to the next page) and put together.
   */
  public static CompletionStage<GetItemsResponse> whole(
      GetItemsResponse page, Function<String, CompletionStage<GetItemsResponse>> next) {
    if (page.getItemsCount() == 0 || !page.getItems(page.getItemsCount() - 1).hasChunk()) {
      return CompletableFuture.completedFuture(page);
    }
    Item first = page.getItems(page.getItemsCount() - 1);
    ChunkedValue whole = first.getChunked();
    long count = whole.getChunkCount();
    long size = whole.getChunkSize();
    if (first.getChunk() != 0
        || whole.getValueSize() > MAX_VALUE_BYTES
        || count < 1
        || (count > 1 && size < MIN_PART_BYTES)
        || (count - 1) * size >= whole.getValueSize()
        || count * size < whole.getValueSize()) {
      throw refused(
          "GetItems returned part "
              + first.getChunk()
              + " of a value of "
              + whole.getValueSize()
              + " bytes in "
              + count
              + " parts of "
              + size
              + " bytes first (expected: part 0 of a value of at most "
              + MAX_VALUE_BYTES
              + " bytes, in parts of at least "
              + MIN_PART_BYTES
              + " bytes that add up to its size)");
    }
    // the parts, put together without a copy once all are in
    ByteString[] parts = new ByteString[whole.getChunkCount()];
    CompletionStage<GetItemsResponse> read =
        page.getPartPageTokensCount() == 0
            ? follow(page, first, parts, 0, next)
            : sideBySide(page, first, parts, next);
    return read.thenApply(
        last -> {
          ByteString value = ByteString.copyFrom(Arrays.asList(parts));
          CRC32C crc = new CRC32C();
          value.asReadOnlyByteBufferList().forEach(crc::update);
          if (value.size() != whole.getValueSize() || (int) crc.getValue() != whole.getCrc32C()) {
            throw refused("the CRC32C of a value read in parts does not match its parts'");
          }
          Item item = first.toBuilder().clearChunk().clearChunked().setValue(value).build();
          return page.toBuilder()
              .setItems(page.getItemsCount() - 1, item)
              .setNextPageToken(last.getNextPageToken())
              .build();
        });
  }

  /**
   * Keeps the part of {@code current}, which starts at {@code offset}, then reads the next while
   * any is left.
   */
  private static CompletionStage<GetItemsResponse> follow(
      GetItemsResponse current,
      Item first,
      ByteString[] parts,
      long offset,
      Function<String, CompletionStage<GetItemsResponse>> next) {
    Item part = current.getItems(current.getItemsCount() - 1);
    ChunkedValue whole = first.getChunked();
    ByteString bytes = part.getValue();
    if (!part.getKey().equals(first.getKey())
        || !part.getChunked().equals(whole)
        || part.getChunk() >= parts.length
        || offset + bytes.size() > whole.getValueSize()) {
      throw refused("the parts of a value read in parts do not match its first part");
    }
    parts[part.getChunk()] = bytes;
    long end = offset + bytes.size();
    if (part.getChunk() == whole.getChunkCount() - 1) {
      if (end != whole.getValueSize()) {
        throw refused("the parts of a value read in parts hold " + end + " of its bytes");
      }
      return CompletableFuture.completedFuture(current);
    }
    if (current.getNextPageToken().isEmpty()) {
      throw refused("a part of a value read in parts came without a page token to the next");
    }
    int expected = part.getChunk() + 1;
    return next.apply(current.getNextPageToken())
        .thenCompose(
            r -> {
              if (r.getItemsCount() != 1 || r.getItems(0).getChunk() != expected) {
                throw refused("GetItems did not return part " + expected + " of a value");
              }
              return follow(r, first, parts, end, next);
            });
  }

  /**
   * Keeps part 0 from {@code page}, then reads the others side by side: one lane per token of a
   * part ahead that part 0's page gave, each lane going on with the token of the part as far ahead
   * that each of its pages gives. Completes with the last part's page.
   */
  private static CompletionStage<GetItemsResponse> sideBySide(
      GetItemsResponse page,
      Item first,
      ByteString[] parts,
      Function<String, CompletionStage<GetItemsResponse>> next) {
    ChunkedValue whole = first.getChunked();
    keep(first, first, 0, parts);
    CompletableFuture<GetItemsResponse> done = new CompletableFuture<>();
    AtomicInteger left = new AtomicInteger(whole.getChunkCount() - 1);
    AtomicReference<GetItemsResponse> last = new AtomicReference<>();
    int lanes = page.getPartPageTokensCount();
    for (int lane = 0; lane < lanes; lane++) {
      lane(page.getPartPageTokens(lane), lane + 1, lanes, first, parts, next, left, last, done);
    }
    return done;
  }

  /** Reads part {@code index} by {@code token}, then the part {@code stride} ahead of it. */
  private static void lane(
      String token,
      int index,
      int stride,
      Item first,
      ByteString[] parts,
      Function<String, CompletionStage<GetItemsResponse>> next,
      AtomicInteger left,
      AtomicReference<GetItemsResponse> last,
      CompletableFuture<GetItemsResponse> done) {
    next.apply(token)
        .whenComplete(
            (r, error) -> {
              if (done.isDone()) {
                return;
              }
              try {
                if (error != null) {
                  throw error;
                }
                if (r.getItemsCount() != 1 || r.getItems(0).getChunk() != index) {
                  throw refused("GetItems did not return part " + index + " of a value");
                }
                keep(r.getItems(0), first, index, parts);
                int count = first.getChunked().getChunkCount();
                if (index == count - 1) {
                  last.set(r);
                }
                if (index + stride < count) {
                  if (r.getPartPageTokensCount() != 1) {
                    throw refused("part " + index + " came without the token of the part ahead");
                  }
                  lane(
                      r.getPartPageTokens(0),
                      index + stride,
                      stride,
                      first,
                      parts,
                      next,
                      left,
                      last,
                      done);
                }
                if (left.decrementAndGet() == 0) {
                  done.complete(last.get());
                }
              } catch (Throwable t) {
                done.completeExceptionally(t);
              }
            });
  }

  /** Keeps part {@code index} of the value {@code first} begins in {@code parts}, checked. */
  private static void keep(Item part, Item first, int index, ByteString[] parts) {
    ChunkedValue whole = first.getChunked();
    long offset = (long) index * whole.getChunkSize();
    long expected =
        index == whole.getChunkCount() - 1 ? whole.getValueSize() - offset : whole.getChunkSize();
    ByteString bytes = part.getValue();
    if (!part.getKey().equals(first.getKey())
        || !part.getChunked().equals(whole)
        || bytes.size() != expected
        || index >= parts.length) {
      throw refused("part " + index + " of a value read in parts does not match its first part");
    }
    parts[index] = bytes;
  }

  private static RuntimeException refused(String message) {
    return Status.DATA_LOSS.withDescription(message).asRuntimeException();
  }

  private static Struct struct(String field, long n) {
    return Struct.newBuilder()
        .putFields(field, Value.newBuilder().setNumberValue(n).build())
        .build();
  }
}
