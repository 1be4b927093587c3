package io.varve.core.namespace;

import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.SloCatalog;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The TimeSeries endpoints that carry objectives, and their defaults
 * (docs/namespace-configuration.md). Reads default to a target of 500 ms and a max of 2 s: the
 * reference text's read objectives with room for a 1000-event page on a loaded cluster; past the
 * max, ReadEventRecords and SearchEventRecords return a partial page. Writes default to 100 ms and
 * 2 s (the server advertises them; clients hedge and time out around them). AggregateEventRecords
 * takes seconds by nature and has no partial answer: it defaults to a target of 2 s and a max of 60
 * s, the server's request timeout, so that an aggregation stops early only where a namespace (or
 * the caller's deadline) says so.
 */
public final class TimeSeriesSlos {

  public static final String WRITE_SYNC = "WriteEventRecordsSync";
  public static final String WRITE = "WriteEventRecords";
  public static final String READ = "ReadEventRecords";
  public static final String SEARCH = "SearchEventRecords";
  public static final String AGGREGATE = "AggregateEventRecords";

  public static final String READ_GROUP = "read";
  public static final String WRITE_GROUP = "write";

  public static final LatencySlo DEFAULT_READ =
      new LatencySlo(Duration.ofMillis(500), Duration.ofSeconds(2));
  public static final LatencySlo DEFAULT_WRITE =
      new LatencySlo(Duration.ofMillis(100), Duration.ofSeconds(2));
  public static final LatencySlo DEFAULT_AGGREGATE =
      new LatencySlo(Duration.ofSeconds(2), LatencySlo.CEILING);

  public static final SloCatalog CATALOG = catalog();

  private TimeSeriesSlos() {}

  private static SloCatalog catalog() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    endpoints.put(WRITE_SYNC, WRITE_GROUP);
    endpoints.put(WRITE, WRITE_GROUP);
    endpoints.put(READ, READ_GROUP);
    endpoints.put(SEARCH, READ_GROUP);
    endpoints.put(AGGREGATE, READ_GROUP);
    return new SloCatalog(
        endpoints,
        Map.of(READ_GROUP, DEFAULT_READ, WRITE_GROUP, DEFAULT_WRITE),
        Map.of(AGGREGATE, DEFAULT_AGGREGATE));
  }
}
