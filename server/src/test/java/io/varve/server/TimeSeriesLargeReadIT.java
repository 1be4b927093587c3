package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.core.event.Limits;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reads of a series of large events (three items of 2 MiB each, the largest values the server
 * takes). A page ends once its events hold {@code timeseries.limits.maxPageBytes} (8 MiB), with a
 * token to go on from, and the store asks Cassandra for a few rows of such a table at a time:
 * before both, eight concurrent reads of 90 such events had Cassandra answer pages of 181 rows of 2
 * MiB, and the node ran out of memory.
 */
class TimeSeriesLargeReadIT {

  static final String NS = "large_read_it";
  static final int ITEM_BYTES = 2 * Limits.MIB;
  static final int EVENT_BYTES = 3 * (ITEM_BYTES + 1);
  static final int EVENTS = 9;
  static final int READERS = 8;

  static TestServer server;
  static TimeSeriesGrpc.TimeSeriesBlockingStub grpc;
  static Instant first;

  /** The events written, newest first. */
  static final List<Event> written = new ArrayList<>();

  @BeforeAll
  static void start() {
    server = new TestServer("varve_large_read_it", NS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "large_read_it", "persistence_configuration": [{
          "id": "PRIMARY_STORAGE",
          "physical_storage": {"type": "CASSANDRA", "cluster": "local", "dataset": "large_read_it"},
          "config": {"timePartition": {"secondsPerTimeSlice": "3600", "secondPerTimeBucket": "3600", "eventBuckets": 1}, "acceptLimit": "3600s"}
          }]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    grpc =
        GrpcClients.builder(server.base())
            .maxResponseLength(0)
            .maxResponseMessageLength(-1)
            .maxRequestMessageLength(-1)
            .responseTimeout(Duration.ofMinutes(2))
            .build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
    first = Instant.now().minus(20, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
    java.util.Random random = new java.util.Random(3);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      Event.Builder event =
          Event.newBuilder()
              .setTimeSeriesId("big")
              .setEventTime(timestamp(first.plusSeconds(i)))
              .setEventId("e" + i);
      for (String key : List.of("a", "b", "c")) {
        byte[] value = new byte[ITEM_BYTES];
        random.nextBytes(value);
        event.addEventItems(
            EventItem.newBuilder()
                .setEventItemKey(ByteString.copyFromUtf8(key))
                .setEventItemValue(ByteString.copyFrom(value)));
      }
      events.add(event.build());
    }
    for (int i = 0; i < EVENTS; i += 3) {
      WriteEventRecordsResponse response =
          grpc.writeEventRecordsSync(
              WriteEventRecordsRequest.newBuilder()
                  .setNamespace(NS)
                  .addAllEvents(events.subList(i, i + 3))
                  .build());
      assertThat(response.getWrittenCount()).as(response.toString()).isEqualTo(3);
    }
    for (int i = EVENTS - 1; i >= 0; i--) {
      written.add(events.get(i));
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static Timestamp timestamp(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }

  static ReadEventRecordsRequest read(int pageSize, String token) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(NS)
        .setTimeSeriesId("big")
        .setTimeInterval(
            TimeInterval.newBuilder()
                .setStart(timestamp(first.minusSeconds(60)))
                .setEnd(timestamp(first.plusSeconds(EVENTS))))
        .setPageSize(pageSize)
        .setPageToken(token)
        .build();
  }

  static long bytes(ReadEventRecordsResponse page) {
    return page.getEventsList().stream()
        .flatMap(e -> e.getEventItemsList().stream())
        .mapToLong(i -> i.getEventItemKey().size() + i.getEventItemValue().size())
        .sum();
  }

  @Test
  void pages_of_large_events_end_at_8_mib_and_together_return_every_event_whole() {
    List<Event> all = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String token = "";
    do {
      ReadEventRecordsResponse page = grpc.readEventRecords(read(100, token));
      assertThat(page.getEventsCount()).as("every page makes progress").isPositive();
      assertThat(bytes(page))
          .as("a page ends at its byte limit, passing it by less than an event")
          .isLessThan(8L * Limits.MIB + EVENT_BYTES);
      assertThat(page.getPartial()).isFalse();
      sizes.add(page.getEventsCount());
      all.addAll(page.getEventsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());

    System.out.println("events per page of 6 MiB events, pageSize 100: " + sizes);
    assertThat(all).isEqualTo(written);
    assertThat(sizes).hasSizeGreaterThanOrEqualTo(EVENTS / 3);
  }

  @Test
  void concurrent_first_pages_over_grpc_and_json_are_answered_or_refused_429_never_failed()
      throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(2 * READERS);
    try {
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 0; i < READERS; i++) {
        calls.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    ReadEventRecordsResponse page = grpc.readEventRecords(read(90, ""));
                    // a page cut by the read's latency objective may be empty: it is partial
                    return page.getEventsList().equals(written.subList(0, page.getEventsCount()))
                            && (page.getEventsCount() > 0 || page.getPartial())
                            && !page.getNextPageToken().isEmpty()
                        ? "OK"
                        : "WRONG " + page.getEventsCount();
                  } catch (StatusRuntimeException e) {
                    return e.getStatus().getCode().name();
                  }
                },
                callers));
        calls.add(
            CompletableFuture.supplyAsync(
                () -> {
                  JsonNode body =
                      TestServer.JSON.valueToTree(
                          java.util.Map.of(
                              "namespace",
                              NS,
                              "timeSeriesId",
                              "big",
                              "pageSize",
                              90,
                              "timeInterval",
                              java.util.Map.of(
                                  "start", first.minusSeconds(60).toString(),
                                  "end", first.plusSeconds(EVENTS).toString())));
                  TestServer.Reply reply = server.post("ReadEventRecords", body);
                  if (reply.status() != 200) {
                    return reply.status() + " " + reply.body().path("error").path("code").asText();
                  }
                  List<String> ids = Events.ids(reply.body());
                  return (!ids.isEmpty() || reply.body().path("partial").asBoolean())
                          && ids.equals(ids(written).subList(0, ids.size()))
                          && !reply.body().path("nextPageToken").asText().isEmpty()
                      ? "OK"
                      : "WRONG " + ids;
                },
                callers));
      }
      List<String> answers = calls.stream().map(CompletableFuture::join).toList();
      System.out.println("16 concurrent first pages of 6 MiB events: " + answers);

      assertThat(answers)
          .as("each page answered with the newest events, or refused for lack of memory")
          .allMatch(
              a ->
                  a.equals("OK")
                      || a.equals("RESOURCE_EXHAUSTED")
                      || a.equals("429 RESOURCE_EXHAUSTED"))
          .anyMatch(a -> a.equals("OK"));
      // and Cassandra still answers
      assertThat(grpc.readEventRecords(read(1, "")).getEventsList())
          .containsExactly(written.get(0));
    } finally {
      callers.shutdownNow();
    }
  }

  static List<String> ids(List<Event> events) {
    return events.stream().map(Event::getEventId).toList();
  }
}
