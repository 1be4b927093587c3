package io.varve.core.read;

/**
 * The part of one time bucket a read covers: events of {@code [fromMillis, toMillis)} in the
 * partitions {@code 0..eventBuckets-1} of bucket {@code timeBucketMillis} of {@code table}.
 */
public record BucketScan(
    String table, long timeBucketMillis, int eventBuckets, long fromMillis, long toMillis) {}
