package io.varve.perf.search;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.EqualsQuery;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchQuery;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.client.CallSettings;
import io.varve.client.TimeSeriesClient;
import io.varve.client.VarveClient;

/**
 * The API calls of {@code varve perf search}, each failing the run with the request when the server
 * answers an error (or, for a write, does not write every event), and the pieces its requests are
 * built from.
 */
final class ApiCalls {

  private ApiCalls() {}

  /** Writes every event of the request, or fails. */
  static void write(TimeSeriesClient api, WriteEventRecordsRequest request) {
    WriteEventRecordsResponse response;
    try {
      response = VarveClient.join(api.writeEventRecordsSync(request, CallSettings.defaults()));
    } catch (StatusRuntimeException e) {
      throw failed(
          "WriteEventRecordsSync of "
              + request.getEventsCount()
              + " events, the first "
              + json(request.getEvents(0)),
          e);
    }
    if (response.getWrittenCount() != request.getEventsCount()) {
      throw new IllegalStateException(
          "WriteEventRecordsSync wrote "
              + response.getWrittenCount()
              + " of "
              + request.getEventsCount()
              + " events: "
              + json(response));
    }
  }

  static SearchEventRecordsResponse search(
      TimeSeriesClient api, SearchEventRecordsRequest request) {
    try {
      return VarveClient.join(api.searchEventRecords(request, CallSettings.defaults()));
    } catch (StatusRuntimeException e) {
      throw failed("SearchEventRecords " + json(request), e);
    }
  }

  static AggregateEventRecordsResponse aggregate(
      TimeSeriesClient api, AggregateEventRecordsRequest request) {
    try {
      return VarveClient.join(api.aggregateEventRecords(request, CallSettings.defaults()));
    } catch (StatusRuntimeException e) {
      throw failed("AggregateEventRecords " + json(request), e);
    }
  }

  /** The count an {@code AggregateEventRecords} count request answers. */
  static long count(TimeSeriesClient api, AggregateEventRecordsRequest request) {
    AggregateEventRecordsResponse response = aggregate(api, request);
    if (!response.hasCount()) {
      throw new IllegalStateException(
          "wrong result: no count in the answer\nrequest: AggregateEventRecords "
              + json(request)
              + "\nresponse: "
              + json(response));
    }
    return response.getCount();
  }

  /** A wrong answer: what is wrong, the request and (abbreviated) the response. */
  static IllegalStateException wrongResult(
      String problem, String rpc, MessageOrBuilder request, MessageOrBuilder response) {
    return new IllegalStateException(
        "wrong result: "
            + problem
            + "\nrequest: "
            + rpc
            + " "
            + json(request)
            + "\nresponse: "
            + abbreviate(json(response)));
  }

  /** An error answer of the server, with the request that got it. */
  static IllegalStateException failed(String request, StatusRuntimeException e) {
    return new IllegalStateException(
        "the server answered "
            + e.getStatus().getCode()
            + ": "
            + e.getStatus().getDescription()
            + "\nrequest: "
            + request,
        e);
  }

  static SearchQuery equals(String key, String value) {
    return SearchQuery.newBuilder()
        .setEquals(
            EqualsQuery.newBuilder().setEventItemKey(bytes(key)).setEventItemValue(bytes(value)))
        .build();
  }

  static ByteString bytes(String text) {
    return ByteString.copyFromUtf8(text);
  }

  static TimeInterval interval(long fromMillis, long toMillis) {
    return TimeInterval.newBuilder()
        .setStart(SearchEvents.timestamp(fromMillis))
        .setEnd(SearchEvents.timestamp(toMillis))
        .build();
  }

  static String json(MessageOrBuilder message) {
    try {
      return JsonFormat.printer().omittingInsignificantWhitespace().print(message);
    } catch (InvalidProtocolBufferException e) {
      return message.toString();
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 4000
        ? text
        : text.substring(0, 4000) + "... (" + text.length() + " characters)";
  }
}
