package io.varve.core.kv;

/**
 * One item of a record as written or read.
 *
 * @param key the item key
 * @param value the value (empty when a read excludes values), compressed as {@code compression}
 *     says
 * @param valueSize the value's size as written, uncompressed
 * @param generationMicros write time: the generation time of the token that wrote it (0 on writes)
 * @param compression how {@code value} is compressed: NONE unless a client sent it compressed, or
 *     asked to receive values as stored
 */
public record KvItem(
    byte[] key,
    byte[] value,
    long valueSize,
    long generationMicros,
    ValueMetadata.Compression compression) {

  /** An item whose value is not compressed. */
  public KvItem(byte[] key, byte[] value, long valueSize, long generationMicros) {
    this(key, value, valueSize, generationMicros, ValueMetadata.Compression.NONE);
  }

  public static KvItem of(byte[] key, byte[] value) {
    return new KvItem(key, value, value.length, 0);
  }
}
