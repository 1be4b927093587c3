package io.varve.server.dataplane;

import io.varve.api.timeseries.v1.EventFilter;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.EventItem;
import io.varve.core.event.Limits;
import io.varve.core.namespace.Names;
import io.varve.core.read.PageTokens;
import io.varve.server.request.RequestTimes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A validated ReadEventRecords request, with the fingerprint that binds its page tokens: the
 * namespace, series, interval, filters and total limit (the page size may change between pages).
 */
record ReadQuery(
    long fromMillis,
    long toMillis,
    List<EventItem> filters,
    int pageSize,
    int totalLimit,
    byte[] fingerprint) {

  static ReadQuery of(ReadEventRecordsRequest r, Limits limits) {
    Names.namespace("namespace", r.getNamespace());
    if (r.getTimeSeriesId().isEmpty()) {
      throw InvalidFieldException.of("timeSeriesId", "missing (expected: the id of a time series)");
    }
    if (r.getTimeSeriesId().getBytes(StandardCharsets.UTF_8).length
        > limits.maxTimeSeriesIdBytes()) {
      throw new InvalidFieldException(
          "timeSeriesId",
          r.getTimeSeriesId(),
          "1.." + limits.maxTimeSeriesIdBytes() + " bytes of UTF-8");
    }
    long[] interval = RequestTimes.interval(r.hasTimeInterval(), r.getTimeInterval());
    long from = interval[0];
    long to = interval[1];
    int pageSize =
        EventMapping.pageSize(
            "pageSize",
            r.hasPageSize(),
            r.getPageSize(),
            limits.defaultPageSize(),
            limits.maxPageSize());
    int total = EventMapping.totalRecordLimit(r.hasTotalRecordLimit(), r.getTotalRecordLimit());
    if (r.getEventFiltersCount() > limits.maxEventFilters()) {
      throw new InvalidFieldException(
          "eventFilters",
          InvalidFieldException.shown(r.getEventFiltersCount() + " filters"),
          "at most " + limits.maxEventFilters());
    }
    List<EventItem> filters = new ArrayList<>();
    List<String> parts =
        new ArrayList<>(
            List.of(
                r.getNamespace(),
                r.getTimeSeriesId(),
                Long.toString(from),
                Long.toString(to),
                Integer.toString(total)));
    for (int i = 0; i < r.getEventFiltersCount(); i++) {
      EventFilter f = r.getEventFilters(i);
      if (f.getMatchEventItemKey().isEmpty()) {
        throw InvalidFieldException.of(
            "eventFilters[" + i + "].matchEventItemKey",
            "missing (expected: the base64 key of an event item)");
      }
      filters.add(
          new EventItem(
              f.getMatchEventItemKey().toByteArray(), f.getMatchEventItemValue().toByteArray()));
      parts.add(Base64.getEncoder().encodeToString(f.getMatchEventItemKey().toByteArray()));
      parts.add(Base64.getEncoder().encodeToString(f.getMatchEventItemValue().toByteArray()));
    }
    return new ReadQuery(
        from, to, filters, pageSize, total, PageTokens.fingerprint(parts.toArray(String[]::new)));
  }
}
