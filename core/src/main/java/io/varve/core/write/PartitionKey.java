package io.varve.core.write;

/**
 * One partition of a slice table: {@code (time_series_id, time_bucket, event_bucket)}.
 *
 * @param table the slice table
 * @param timeSeriesId the time series
 * @param timeBucketMillis start of the time bucket, epoch milliseconds
 * @param eventBucket the event bucket
 */
public record PartitionKey(
    String table, String timeSeriesId, long timeBucketMillis, int eventBucket) {}
