package io.varve.server.config;

import java.time.Duration;

/**
 * The cache of ReadEventRecords pages of immutable ranges ({@code timeseries.readCache}).
 *
 * @param maxBytes what it holds at most, pages and per-entry overhead; 0 turns it off
 * @param safetyMargin how much older than the accept limit a range's end must be for its pages to
 *     be cached
 */
public record ReadCacheSettings(long maxBytes, Duration safetyMargin) {

  public static final long DEFAULT_MAX_BYTES = 32L << 20;
  public static final Duration DEFAULT_SAFETY_MARGIN = Duration.ofMinutes(5);
}
