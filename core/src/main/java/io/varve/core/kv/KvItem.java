package io.varve.core.kv;

/**
 * One item of a record as written or read.
 *
 * @param key the item key
 * @param value the value as the client wrote it (empty when a read excludes values)
 * @param valueSize the value's size as written
 * @param generationMicros write time: the generation time of the token that wrote it (0 on writes)
 */
public record KvItem(byte[] key, byte[] value, long valueSize, long generationMicros) {

  public static KvItem of(byte[] key, byte[] value) {
    return new KvItem(key, value, value.length, 0);
  }
}
