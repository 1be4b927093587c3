package io.varve.perf.search;

import io.varve.api.timeseries.v1.BooleanQuery;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.RangeBound;
import io.varve.api.timeseries.v1.RangeQuery;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchQuery;
import io.varve.client.TimeSeriesClient;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Phase 2 of {@code varve perf search}: SearchEventRecords latency, {@code
 * search_{equals,equals_range}_{1h,24h}}: {@code deviceType} = one value, and that AND {@code
 * duration} in a 900-wide range, over a random hour of the day or the whole day, a page of {@value
 * SearchBenchmark#PAGE_SIZE}, from closed-loop clients. Every answer is checked; the warm-up's page
 * sizes exactly against the data written.
 */
final class SearchLatencyPhase {

  private final Environment environment;
  private final SearchParameters parameters;
  private final TimeSeriesClient api;

  SearchLatencyPhase(Environment environment, SearchParameters parameters, TimeSeriesClient api) {
    this.environment = environment;
    this.parameters = parameters;
    this.api = api;
  }

  void run(Figures out, SearchEvents data, long dataFrom, long dataEnd) throws Exception {
    for (boolean wholeDay : new boolean[] {false, true}) {
      for (boolean withRange : new boolean[] {false, true}) {
        String name =
            "search_" + (withRange ? "equals_range_" : "equals_") + (wholeDay ? "24h" : "1h");
        environment.progress(
            name
                + ": "
                + parameters.warmup()
                + " warm-up and "
                + parameters.requests()
                + " measured requests from "
                + parameters.clients()
                + " clients");
        AtomicLong returned = new AtomicLong();
        LatencyRun.Result result =
            LatencyRun.run(
                parameters.clients(),
                parameters.warmup(),
                parameters.requests(),
                i -> {
                  SplittableRandom random =
                      new SplittableRandom(
                          (withRange ? 7_000_000_000L : 0) + (wholeDay ? 3_000_000_000L : 0) + i);
                  int device = random.nextInt(SearchEvents.DEVICE_TYPES.size());
                  long from;
                  long to;
                  if (wholeDay) {
                    from = dataFrom;
                    to = dataEnd + random.nextInt(60) * 1000L;
                  } else {
                    int hour = 1 + random.nextInt(24);
                    from = dataEnd - hour * SearchBenchmark.HOUR;
                    to = from + SearchBenchmark.HOUR;
                  }
                  int lo = withRange ? random.nextInt(SearchEvents.MAX_DURATION - 900) : -1;
                  int hi = withRange ? lo + 900 : -1;
                  SearchEventRecordsRequest request =
                      SearchEventRecordsRequest.newBuilder()
                          .setNamespace(SearchNamespace.NAME)
                          .setTimeInterval(ApiCalls.interval(from, to))
                          .setSearchQuery(query(SearchEvents.DEVICE_TYPES.get(device), lo, hi))
                          .setPageSize(SearchBenchmark.PAGE_SIZE)
                          .build();
                  SearchEventRecordsResponse response = ApiCalls.search(api, request);
                  long expected = i < 0 ? data.count(device, lo, hi, from, to) : -1;
                  check(
                      request,
                      response,
                      SearchEvents.DEVICE_TYPES.get(device),
                      lo,
                      hi,
                      from,
                      to,
                      expected);
                  if (i >= 0) {
                    returned.addAndGet(response.getEventsCount());
                  }
                });
        result.print(out, name);
        out.put(name + "_events_per_response", (double) returned.get() / parameters.requests());
      }
    }
  }

  /**
   * {@code deviceType} = device, AND, when {@code lo} is not negative, {@code duration} in [lo,
   * hi).
   */
  private static SearchQuery query(String device, int lo, int hi) {
    SearchQuery query = ApiCalls.equals(SearchEvents.DEVICE_TYPE, device);
    if (lo < 0) {
      return query;
    }
    return SearchQuery.newBuilder()
        .setBooleanQuery(
            BooleanQuery.newBuilder()
                .setOperator("AND")
                .addSearchQuery(query)
                .addSearchQuery(
                    SearchQuery.newBuilder()
                        .setRange(
                            RangeQuery.newBuilder()
                                .setEventItemKey(ApiCalls.bytes(SearchEvents.DURATION))
                                .setLowerBound(
                                    RangeBound.newBuilder()
                                        .setEventItemValue(ApiCalls.bytes(Integer.toString(lo)))
                                        .setInclusive(true))
                                .setUpperBound(
                                    RangeBound.newBuilder()
                                        .setEventItemValue(ApiCalls.bytes(Integer.toString(hi)))))))
        .build();
  }

  /**
   * Checks an answer: at most a page, events newest first, each in the interval and matching the
   * query; with {@code expected} not negative, exactly min(page, expected) events.
   */
  private static void check(
      SearchEventRecordsRequest request,
      SearchEventRecordsResponse response,
      String device,
      int lo,
      int hi,
      long from,
      long to,
      long expected) {
    int page = SearchBenchmark.PAGE_SIZE;
    String problem = null;
    if (response.getEventsCount() > page) {
      problem = response.getEventsCount() + " events in a page of " + page;
    } else if (expected >= 0 && response.getEventsCount() != Math.min(page, expected)) {
      problem =
          response.getEventsCount()
              + " events, expected "
              + Math.min(page, expected)
              + " ("
              + expected
              + " events of the data written match)";
    }
    long previous = Long.MAX_VALUE;
    for (int i = 0; problem == null && i < response.getEventsCount(); i++) {
      Event event = response.getEvents(i);
      long time = SearchEvents.millis(event.getEventTime());
      String d = SearchEvents.item(event, SearchEvents.DEVICE_TYPE);
      String duration = SearchEvents.item(event, SearchEvents.DURATION);
      if (time < from || time >= to) {
        problem = "event " + i + " is outside the interval";
      } else if (time > previous) {
        problem = "event " + i + " is newer than event " + (i - 1) + " (expected: newest first)";
      } else if (!device.equals(d)) {
        problem = "event " + i + " has deviceType " + d;
      } else if (lo >= 0
          && (duration == null
              || Integer.parseInt(duration) < lo
              || Integer.parseInt(duration) >= hi)) {
        problem = "event " + i + " has duration " + duration;
      }
      previous = time;
    }
    if (problem != null) {
      throw ApiCalls.wrongResult(problem, "SearchEventRecords", request, response);
    }
  }
}
