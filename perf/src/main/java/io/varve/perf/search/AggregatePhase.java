package io.varve.perf.search;

import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.DistinctAggregation;
import io.varve.api.timeseries.v1.DistinctValue;
import io.varve.client.TimeSeriesClient;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Phase 3 of {@code varve perf search}: AggregateEventRecords latency, {@code
 * aggregate_distinct_24h}: distinct {@code country} over the day, a page of {@value
 * SearchBenchmark#PAGE_SIZE}, from closed-loop clients. Every answer is checked; the warm-up's
 * counts exactly against the data written.
 */
final class AggregatePhase {

  private final Environment environment;
  private final SearchParameters parameters;
  private final TimeSeriesClient api;

  AggregatePhase(Environment environment, SearchParameters parameters, TimeSeriesClient api) {
    this.environment = environment;
    this.parameters = parameters;
    this.api = api;
  }

  void run(Figures out, SearchEvents data, long dataFrom, long dataEnd) throws Exception {
    Map<String, Long> expected = data.countsByCountry();
    String name = "aggregate_distinct_24h";
    environment.progress(
        name
            + ": "
            + parameters.warmup()
            + " warm-up and "
            + parameters.requests()
            + " measured requests from "
            + parameters.clients()
            + " clients");
    LatencyRun.Result result =
        LatencyRun.run(
            parameters.clients(),
            parameters.warmup(),
            parameters.requests(),
            i -> {
              SplittableRandom random = new SplittableRandom(11_000_000_000L + i);
              AggregateEventRecordsRequest request =
                  AggregateEventRecordsRequest.newBuilder()
                      .setNamespace(SearchNamespace.NAME)
                      .setTimeInterval(
                          ApiCalls.interval(dataFrom, dataEnd + random.nextInt(60) * 1000L))
                      .setAggregationQuery(
                          AggregationQuery.newBuilder()
                              .setDistinct(
                                  DistinctAggregation.newBuilder()
                                      .setEventItemKey(SearchEvents.COUNTRY)
                                      .setPageSize(SearchBenchmark.PAGE_SIZE)))
                      .build();
              AggregateEventRecordsResponse response = ApiCalls.aggregate(api, request);
              String problem = problem(response, i < 0 ? expected : null, expected.size());
              if (problem != null) {
                throw ApiCalls.wrongResult(problem, "AggregateEventRecords", request, response);
              }
            });
    result.print(out, name);
  }

  /**
   * What is wrong with an answer, or null: every country in one page, the counts summing to every
   * event, and, with {@code exact} given, the count of each country.
   */
  private String problem(
      AggregateEventRecordsResponse response, Map<String, Long> exact, int countries) {
    Map<String, Long> got = new HashMap<>();
    long total = 0;
    for (DistinctValue value : response.getDistinct().getValuesList()) {
      got.put(value.getEventItemValue().toString(StandardCharsets.UTF_8), value.getCount());
      total += value.getCount();
    }
    if (!response.hasDistinct()) {
      return "no distinct values in the answer";
    } else if (exact != null && !got.equals(exact)) {
      return "the counts per country differ from the data written, expected " + exact;
    } else if (got.size() != countries || total != parameters.events()) {
      return got.size()
          + " countries, "
          + total
          + " events; expected "
          + countries
          + " countries, "
          + parameters.events()
          + " events";
    } else if (!response.getDistinct().getNextPageToken().isEmpty()) {
      return "a next page, though every value fits in one";
    }
    return null;
  }
}
