package io.varve.core.kv;

import java.nio.ByteBuffer;

/**
 * One part of a large value a client stages in the chunked protocol ({@code Item.chunk} on
 * PutItems): stored as chunk {@code chunk} of the version its idempotency token writes, read by
 * nobody until a {@link KvCommit} of that token commits the value.
 *
 * @param key the item key
 * @param chunk the part's index, 0-based
 * @param value the part's bytes: 1 to {@link KvChunking#chunkSize()}, read-only, shared with the
 *     request it came in (not copied)
 */
public record KvPart(byte[] key, int chunk, ByteBuffer value) {}
