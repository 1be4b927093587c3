package io.varve.core.event;

import java.time.Duration;

/**
 * Size and count limits of the data plane, enforced on every request. The defaults are documented
 * in docs/limits.md; a server may lower or raise them through its configuration.
 *
 * @param maxRequestBytes size of one request body / gRPC message
 * @param maxEventsPerBatch events in one write request
 * @param maxItemsPerEvent items in one event
 * @param maxItemKeyBytes bytes of one item key
 * @param maxItemValueBytes bytes of one item value (before compression)
 * @param maxEventBytes keys plus values of one event
 * @param maxTimeSeriesIdBytes UTF-8 bytes of a time series id
 * @param maxEventIdBytes UTF-8 bytes of an event id
 * @param maxPageSize events in one read page
 * @param defaultPageSize events in a read page when the request does not say
 * @param maxPageBytes keys plus values of the events of one read page, after which it ends early
 *     (with at least one event)
 * @param maxEventFilters filters in one read request
 * @param futureLimit how far ahead of now an event time may be
 */
public record Limits(
    int maxRequestBytes,
    int maxEventsPerBatch,
    int maxItemsPerEvent,
    int maxItemKeyBytes,
    int maxItemValueBytes,
    int maxEventBytes,
    int maxTimeSeriesIdBytes,
    int maxEventIdBytes,
    int maxPageSize,
    int defaultPageSize,
    int maxPageBytes,
    int maxEventFilters,
    Duration futureLimit) {

  public static final int MIB = 1024 * 1024;

  public static final Limits DEFAULT =
      new Limits(
          32 * MIB,
          1000,
          256,
          1024,
          2 * MIB,
          8 * MIB,
          256,
          128,
          1000,
          100,
          8 * MIB,
          16,
          Duration.ofHours(1));
}
