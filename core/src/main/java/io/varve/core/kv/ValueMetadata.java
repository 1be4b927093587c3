package io.varve.core.kv;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the {@code value_metadata} cell of an item holds. Part of the storage format: a version byte
 * ({@value #VERSION}), then fields as {@code tag, varint length, bytes}, then the end tag 0; a
 * reader skips tags it does not know, so later versions add fields (chunk information, say) without
 * rewriting rows.
 *
 * <p>The {@code value} cell starts with the same bytes, the stored value after them ({@link
 * #frame}). Cassandra settles two writes of one cell with the same timestamp by keeping the larger
 * bytes, cell by cell; two puts of one key at the same generation time would otherwise leave the
 * metadata of one beside the value of the other. With the metadata in front of both cells, and the
 * end tag making no metadata the beginning of another, both cells sort by the metadata first and
 * keep the same write (and identical metadata means the cells agree whichever value is kept).
 *
 * <p>Tags: 1 the token's nonce (UTF-8), 2 the value's size before compression, 3 the compression (0
 * none, 1 zstd level 1), 4 expired (1 when DeleteItems marked the item deleted), 5 the chunk count
 * (0 or absent: the value is inline), 6 the chunk size, 7 the stored (compressed) size of a chunked
 * value, 8 the CRC32C of its stored bytes. Tags 6 to 8 are written only with tag 5; rows written
 * before them decode with zeros, as inline values.
 *
 * @param token the nonce of the idempotency token that wrote the item
 * @param valueSize bytes of the value as the client wrote it
 * @param compression how the stored value is compressed
 * @param expired whether a DeleteItems marked the item deleted (reads hide it at once)
 * @param chunks chunks holding the value; 0 when the value is in the row
 * @param chunkSize bytes of each chunk but the last (0 when inline)
 * @param storedSize bytes of the stored value, all chunks together (0 when inline)
 * @param checksum CRC32C of the stored bytes of a chunked value (0 when inline)
 */
public record ValueMetadata(
    String token,
    long valueSize,
    Compression compression,
    boolean expired,
    int chunks,
    int chunkSize,
    long storedSize,
    int checksum) {

  /** Metadata of an inline value or one without chunk details. */
  public ValueMetadata(
      String token, long valueSize, Compression compression, boolean expired, int chunks) {
    this(token, valueSize, compression, expired, chunks, 0, 0, 0);
  }

  public enum Compression {
    NONE,
    ZSTD
  }

  static final byte VERSION = 2;

  /** The tag that ends the fields. */
  private static final byte END = 0;

  /** {@link Compression#values()} once: the array is copied at every call. */
  private static final Compression[] COMPRESSIONS = Compression.values();

  /** Bytes of the longest varint (a 64-bit value, 7 bits a byte). */
  private static final int VARINT_BYTES = 10;

  /** Bytes of the longest varint field: tag, length, varint. */
  private static final int FIELD_BYTES = 2 + VARINT_BYTES;

  public static ValueMetadata inline(String token, long valueSize, Compression compression) {
    return new ValueMetadata(token, valueSize, compression, false, 0);
  }

  /** A value stored in {@code chunks} chunks of the chunk table. */
  public static ValueMetadata chunked(
      String token,
      long valueSize,
      Compression compression,
      int chunks,
      int chunkSize,
      long storedSize,
      int checksum) {
    return new ValueMetadata(
        token, valueSize, compression, false, chunks, chunkSize, storedSize, checksum);
  }

  /** Whether the value lives in the chunk table rather than in the row. */
  public boolean isChunked() {
    return chunks > 0;
  }

  public static ValueMetadata expired(String token) {
    return new ValueMetadata(token, 0, Compression.NONE, true, 0);
  }

  public byte[] encode() {
    // every write encodes one per item: into one array, no stream or array per field
    byte[] nonce = token.getBytes(StandardCharsets.UTF_8);
    ByteBuffer out = ByteBuffer.allocate(1 + 2 + VARINT_BYTES + nonce.length + 7 * FIELD_BYTES + 1);
    out.put(VERSION);
    out.put((byte) 1);
    putVarint(out, nonce.length);
    out.put(nonce);
    varintField(out, 2, valueSize);
    varintField(out, 3, compression.ordinal());
    if (expired) {
      varintField(out, 4, 1);
    }
    if (chunks > 0) {
      varintField(out, 5, chunks);
      varintField(out, 6, chunkSize);
      varintField(out, 7, storedSize);
      varintField(out, 8, Integer.toUnsignedLong(checksum));
    }
    out.put(END);
    return Arrays.copyOf(out.array(), out.position());
  }

  /** The {@code value} cell of an item: its encoded metadata, then the stored value. */
  public static ByteBuffer frame(byte[] metadata, ByteBuffer stored) {
    ByteBuffer cell = ByteBuffer.allocate(metadata.length + stored.remaining());
    cell.put(metadata).put(stored.duplicate()).flip();
    return cell;
  }

  /**
   * The stored value of a {@code value} cell: the bytes after its metadata, shared, not copied.
   *
   * @throws IllegalArgumentException when the cell does not start with a metadata of a known
   *     version
   */
  public static ByteBuffer payload(ByteBuffer cell) {
    ByteBuffer in = start(cell);
    skipFields(in);
    return in.slice();
  }

  /**
   * @throws IllegalArgumentException when the bytes are not a metadata of a known version, are
   *     truncated or hold a field out of range (never another exception)
   */
  public static ValueMetadata decode(ByteBuffer stored) {
    ByteBuffer in = start(stored);
    String token = "";
    long size = 0;
    Compression compression = Compression.NONE;
    boolean expired = false;
    int chunks = 0;
    int chunkSize = 0;
    long storedSize = 0;
    int checksum = 0;
    // every read decodes this per item: fields are read in place, no buffer or decoder per field
    for (int tag = nextTag(in); tag != END; tag = nextTag(in)) {
      int end = fieldEnd(in, tag);
      switch (tag) {
        case 1 -> token = utf8(in, end - in.position());
        case 2 -> size = bounded(readVarint(in, end), Long.MAX_VALUE, "value size");
        case 3 ->
            compression =
                COMPRESSIONS[
                    (int) bounded(readVarint(in, end), COMPRESSIONS.length - 1, "compression")];
        case 4 -> expired = readVarint(in, end) == 1;
        case 5 -> chunks = (int) bounded(readVarint(in, end), Integer.MAX_VALUE, "chunk count");
        case 6 -> chunkSize = (int) bounded(readVarint(in, end), Integer.MAX_VALUE, "chunk size");
        case 7 -> storedSize = bounded(readVarint(in, end), Long.MAX_VALUE, "stored size");
        case 8 -> checksum = (int) bounded(readVarint(in, end), 0xFFFFFFFFL, "checksum");
        default -> {} // a later version's field
      }
      in.position(end);
    }
    return new ValueMetadata(
        token, size, compression, expired, chunks, chunkSize, storedSize, checksum);
  }

  /** A buffer over {@code stored} past its version byte, which must be {@value #VERSION}. */
  private static ByteBuffer start(ByteBuffer stored) {
    if (stored == null) {
      throw new IllegalArgumentException("value_metadata missing");
    }
    ByteBuffer in = stored.duplicate();
    if (!in.hasRemaining() || in.get() != VERSION) {
      throw new IllegalArgumentException("value_metadata of an unknown version");
    }
    return in;
  }

  /** Moves {@code in} past its fields and their end tag. */
  private static void skipFields(ByteBuffer in) {
    for (int tag = nextTag(in); tag != END; tag = nextTag(in)) {
      in.position(fieldEnd(in, tag));
    }
  }

  private static int nextTag(ByteBuffer in) {
    if (!in.hasRemaining()) {
      throw new IllegalArgumentException("value_metadata truncated: no end tag");
    }
    return in.get();
  }

  /** Reads the length of field {@code tag}: where its bytes end. */
  private static int fieldEnd(ByteBuffer in, int tag) {
    long length = readVarint(in);
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException(
          "value_metadata truncated: field "
              + tag
              + " of "
              + length
              + " bytes, "
              + in.remaining()
              + " left");
    }
    return in.position() + (int) length;
  }

  private static long bounded(long value, long max, String what) {
    if (value < 0 || value > max) {
      throw new IllegalArgumentException("value_metadata " + what + " out of range: " + value);
    }
    return value;
  }

  /** A varint field: its tag, its length, its varint. */
  private static void varintField(ByteBuffer out, int tag, long value) {
    out.put((byte) tag);
    out.put((byte) varintSize(value));
    putVarint(out, value);
  }

  private static int varintSize(long value) {
    int size = 1;
    for (long v = value; (v & ~0x7FL) != 0; v >>>= 7) {
      size++;
    }
    return size;
  }

  private static void putVarint(ByteBuffer out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.put((byte) v);
  }

  private static String utf8(ByteBuffer in, int length) {
    if (in.hasArray()) {
      return new String(
          in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
    }
    byte[] bytes = new byte[length];
    in.duplicate().get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The varint of a field that ends at {@code end}: one that runs past it is truncated. */
  private static long readVarint(ByteBuffer in, int end) {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in.position() >= end) {
        throw new IllegalArgumentException("value_metadata truncated");
      }
      byte b = in.get();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("value_metadata varint too long");
  }

  private static long readVarint(ByteBuffer in) {
    return readVarint(in, in.limit());
  }
}
