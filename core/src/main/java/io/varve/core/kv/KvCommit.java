package io.varve.core.kv;

import java.util.List;

/**
 * The commit of a value staged in parts ({@link KvPart}) under the same idempotency token: the item
 * row that makes the parts its value, written with the request's other items. Refused unless the
 * staged parts are exactly {@code 0..chunkCount-1}, of one size but the last, adding up to {@code
 * valueSize} bytes whose CRC32C is {@code crc32c}.
 *
 * @param field the request's field of the commit, named in its errors ({@code items[3]})
 * @param key the item key
 * @param chunkCount parts of the value
 * @param valueSize bytes of all parts together, as sent
 * @param crc32c CRC32C of those bytes
 * @param partCrc32c the CRC32C of each part, in order, or empty: when given, a commit refused for a
 *     corrupt part names it
 * @param compression how the parts' bytes are compressed: {@link ValueMetadata.Compression#ZSTD}
 *     when they are one zstd frame the client compressed
 */
public record KvCommit(
    String field,
    byte[] key,
    int chunkCount,
    long valueSize,
    int crc32c,
    List<Integer> partCrc32c,
    ValueMetadata.Compression compression) {}
