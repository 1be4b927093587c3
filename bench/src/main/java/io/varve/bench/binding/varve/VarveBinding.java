package io.varve.bench.binding.varve;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.client.Times;
import io.varve.client.VarveClient;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB operations as events of Varve's TimeSeries API, through the Java client (gRPC). A YCSB
 * record is a time series: the record key is the time series id and the record's current state is
 * the series' newest event.
 *
 * <ul>
 *   <li>insert and update append one event, timed now, whose items are the written fields (durable
 *       write: WriteEventRecordsSync);
 *   <li>read returns the newest event of the series within {@code varve.readinterval} (the
 *       latest-value query), its items as fields; NOT_FOUND when there is none;
 *   <li>scan returns the series' newest {@code recordcount} events, one record each (the
 *       recent-history query; time series have no key order, so a key range has no meaning);
 *   <li>delete is NOT_IMPLEMENTED: events are immutable and leave by retention.
 * </ul>
 */
public final class VarveBinding extends DB {
  private static final AtomicLong SEQUENCE = new AtomicLong();
  private static final String RUN =
      Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffffL);

  private VarveConnection connection;
  private long readIntervalSeconds;

  @Override
  public void init() throws DBException {
    connection = VarveConnection.acquire(getProperties(), VarveConnection.Service.TIME_SERIES);
    readIntervalSeconds = connection.readIntervalSeconds();
  }

  @Override
  public void cleanup() {
    if (connection != null) {
      connection.release();
      connection = null;
    }
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      ReadEventRecordsResponse response =
          VarveClient.join(connection.timeSeries().readEventRecords(readRequest(key, 1)));
      if (response.getEventsCount() == 0) {
        return Status.NOT_FOUND;
      }
      copy(response.getEvents(0), fields, result);
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }

  @Override
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      ReadEventRecordsResponse response =
          VarveClient.join(
              connection.timeSeries().readEventRecords(readRequest(startkey, recordcount)));
      for (Event event : response.getEventsList()) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copy(event, fields, values);
        result.add(values);
      }
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return append(key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return append(key, values);
  }

  @Override
  public Status delete(String table, String key) {
    return Status.NOT_IMPLEMENTED;
  }

  private Status append(String key, Map<String, ByteIterator> values) {
    // the server keeps the millisecond of the time, truncating the rest
    Event.Builder event =
        Event.newBuilder()
            .setTimeSeriesId(key)
            .setEventTime(Times.timestamp(Instant.now()))
            .setEventId(RUN + "-" + SEQUENCE.incrementAndGet());
    values.forEach(
        (field, value) ->
            event.addEventItems(
                EventItem.newBuilder()
                    .setEventItemKey(ByteString.copyFromUtf8(field))
                    .setEventItemValue(ByteString.copyFrom(value.toArray()))));
    try {
      WriteEventRecordsResponse response =
          VarveClient.join(
              connection
                  .timeSeries()
                  .writeEventRecordsSync(
                      WriteEventRecordsRequest.newBuilder()
                          .setNamespace(connection.namespace())
                          .addEvents(event)
                          .build()));
      if (response.getErrorsCount() > 0) {
        return new Status(response.getErrors(0).getCode(), response.getErrors(0).getMessage());
      }
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }

  private ReadEventRecordsRequest readRequest(String key, int limit) {
    Instant now = Instant.now();
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(connection.namespace())
        .setTimeSeriesId(key)
        .setTimeInterval(Times.interval(now.minusSeconds(readIntervalSeconds), now.plusSeconds(1)))
        .setPageSize(limit)
        .setTotalRecordLimit(limit)
        .build();
  }

  private static void copy(Event event, Set<String> fields, Map<String, ByteIterator> result) {
    for (EventItem item : event.getEventItemsList()) {
      String field = item.getEventItemKey().toString(StandardCharsets.UTF_8);
      if (fields == null || fields.contains(field)) {
        result.put(field, new ByteArrayByteIterator(item.getEventItemValue().toByteArray()));
      }
    }
  }
}
