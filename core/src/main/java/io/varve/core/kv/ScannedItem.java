package io.varve.core.kv;

/**
 * An item read by a scan, with its record.
 *
 * @param id the record id
 * @param token the record's partition token (Murmur3)
 * @param item the item
 */
public record ScannedItem(String id, long token, KvItem item) {}
