package io.varve.core.read;

/** One partition of a {@link BucketScan}. */
public record PartitionScan(BucketScan bucket, int eventBucket) {}
