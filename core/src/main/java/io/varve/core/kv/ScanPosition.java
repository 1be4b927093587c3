package io.varve.core.kv;

/**
 * Where a scan page ended: the last row consumed (returned, or skipped as expired).
 *
 * @param token the record's token on the ring
 * @param id the record
 * @param key the item's key
 */
public record ScanPosition(long token, String id, byte[] key) {}
