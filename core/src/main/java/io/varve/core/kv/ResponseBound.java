package io.varve.core.kv;

import io.varve.core.error.VarveException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * What one response message of a read may hold, from the client's signals: the largest message it
 * takes, and whether (and in parts of what size) it takes a value in parts. A gRPC client keeps an
 * inbound message limit (4 MiB unless raised); a response over it fails on the client with gRPC's
 * own error, after the server did all the work. Pages are therefore cut by the serialized size of
 * their message too ({@link BytePage}), and a value that fits no message is sent in parts or
 * refused with a message that says what to send.
 *
 * <p>The message size is estimated from above, without serializing: each item's key and value plus
 * {@value #ITEM_OVERHEAD_BYTES} bytes (its field tags and lengths, its metadata, {@code chunk} and
 * {@code chunked}, a scanned item's wrapper; the record id of a scanned item is counted with its
 * key), plus {@value #RESERVE_BYTES} bytes for the rest of the message: the next page token (which
 * holds a key of up to 4 KiB and a record id of up to 1 KiB, base64, plus the position inside a
 * value) and the response's own fields.
 *
 * @param messageBytes the largest response message the client takes; {@link Long#MAX_VALUE} for no
 *     bound
 * @param source where that bound came from, for errors
 * @param maxChunkBytes the largest part of a value the client takes (its {@code chunking} signal);
 *     0 when it takes no parts
 */
public record ResponseBound(long messageBytes, String source, int maxChunkBytes) {

  /** Bytes counted per item beyond its key and value (see the class comment). */
  public static final int ITEM_OVERHEAD_BYTES = 128;

  /**
   * What a response of {@code items} items of {@code bytes} bytes of keys and values holds in the
   * server's memory, as its response memory counts it: each item with {@value #ITEM_OVERHEAD_BYTES}
   * more, its objects on the server and its framing on the wire, so that a page of many tiny items
   * is not taken for a small response.
   */
  public static long heldBytes(long bytes, long items) {
    return bytes + items * ITEM_OVERHEAD_BYTES;
  }

  /** Bytes of a message kept for its next page token and its own fields. */
  public static final int RESERVE_BYTES = 16 * 1024;

  /** No bound and no parts: a client that takes any message (HTTP/JSON without signals). */
  public static final ResponseBound NONE = new ResponseBound(Long.MAX_VALUE, "no bound", 0);

  /** Whether the client takes values in parts. */
  public boolean chunking() {
    return maxChunkBytes > 0;
  }

  /** Bytes of items (keys, values and their overhead) one message may hold. */
  public long itemRoom() {
    return messageBytes == Long.MAX_VALUE ? Long.MAX_VALUE : messageBytes - RESERVE_BYTES;
  }

  /**
   * Whether an item of {@code itemBytes} (key plus value, {@code keyBytes} of them the key) is
   * returned in parts: the client takes parts, and its value is larger than a part or the item with
   * its overhead does not fit a message. It then comes in at least two parts.
   */
  public boolean inParts(int keyBytes, long itemBytes) {
    return chunking()
        && (itemBytes - keyBytes > maxChunkBytes || itemBytes + ITEM_OVERHEAD_BYTES > itemRoom());
  }

  /**
   * Whether {@code items}, whole values, fit one message of this bound, none of them a value that
   * goes in parts.
   */
  public boolean fitsOneMessage(List<KvItem> items) {
    long bytes = 0;
    for (KvItem item : items) {
      long size = item.key().length + item.value().length;
      if (inParts(item.key().length, size)) {
        return false;
      }
      bytes += size + ITEM_OVERHEAD_BYTES;
    }
    return bytes <= itemRoom();
  }

  /**
   * Bytes of every part but the last of a value of key {@code keyBytes} returned in parts: at most
   * the client's part size, and a part with its key and overhead fits the message.
   */
  public int partBytes(int keyBytes) {
    long room = itemRoom() - ITEM_OVERHEAD_BYTES - keyBytes;
    return (int) Math.max(1024, Math.min(maxChunkBytes, room));
  }

  /**
   * The refusal of an item of {@code itemBytes} (key plus value) that fits no message of this bound
   * and that the client does not take in parts.
   */
  public VarveException tooLarge(byte[] key, long itemBytes) {
    return VarveException.failedPrecondition(
        "the value of key "
            + printable(key)
            + " is "
            + (itemBytes - key.length)
            + " bytes: with its key it does not fit a response message of at most "
            + messageBytes
            + " bytes, the largest this client takes ("
            + source
            + "); send signals {\"chunking\": {}} to receive it in parts (Item.chunk), or"
            + " {\"messages\": {\"maxBytes\": N}} with N above "
            + (itemBytes + ITEM_OVERHEAD_BYTES + RESERVE_BYTES)
            + " if the client takes messages that large");
  }

  /** A key as text: quoted when printable ASCII, else base64. */
  public static String printable(byte[] key) {
    boolean text = key.length <= 256;
    for (int i = 0; i < key.length && text; i++) {
      text = key[i] >= 0x20 && key[i] < 0x7f;
    }
    return text
        ? "\"" + new String(key, StandardCharsets.US_ASCII) + "\""
        : "(base64) " + Base64.getEncoder().encodeToString(key);
  }
}
