package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.varve.local.testing.TestOpenSearch;
import io.varve.server.config.ServerSettings;
import io.varve.server.json.ProtoJson;
import io.varve.server.transport.Transports;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The docs' {@code curl} examples, sent as written (comments and all) to a real server on the test
 * Cassandra and OpenSearch, page after page in the order a reader follows them: each one is
 * answered 200 with its RPC's response, and together they call every RPC the server serves. The
 * server's clock is set, page by page, to the time the page's examples are written for (their event
 * times and idempotency tokens are fixed dates), so that they are accepted as a user following the
 * page on that day would see.
 */
class DocExamplesIT {

  static final String METADATA = "varve_doc_examples_it";

  /**
   * A page and the server's clock while its examples are sent; from the first example of an RPC of
   * {@code later} on, the clock given there (a page whose reader waits: a slice re-partitioned once
   * it has left its write window).
   */
  record Page(String name, Instant clock, Map<String, Instant> later) {
    Page(String name, Instant clock) {
      this(name, clock, Map.of());
    }
  }

  static final List<Page> PAGES =
      List.of(
          new Page("search.md", Instant.parse("2024-10-03T21:30:00Z")),
          new Page(
              "namespace-configuration.md",
              Instant.parse("2025-03-14T09:00:00Z"),
              Map.of("PrepareSliceRepartition", Instant.parse("2025-03-15T01:00:00Z"))),
          new Page("api.md", Instant.parse("2025-03-14T09:15:00Z")),
          new Page("limits.md", Instant.parse("2025-03-14T09:20:00Z")),
          new Page("key-value.md", Instant.parse("2025-03-14T10:00:03Z")));

  static final MovableClock clock = new MovableClock();
  static TestServer server;

  @BeforeAll
  static void start() {
    ServerSettings settings =
        ServerSettings.defaults().toBuilder()
            .openSearchUrls(List.of(URI.create(TestOpenSearch.endpoint())))
            .build();
    clock.moveTo(PAGES.get(0).clock());
    // the keyspaces the examples name
    server =
        new TestServer(
            settings,
            clock,
            METADATA,
            "device_events",
            "my_dataset",
            "ngsegment",
            "scratch_events");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static Map<String, Message> responses() {
    Map<String, Message> responses = new HashMap<>();
    for (var service : Transports.SERVICES) {
      for (MethodDescriptor<?, ?> method : service.getMethods()) {
        responses.put(
            method.getBareMethodName(),
            (Message)
                ((MethodDescriptor.PrototypeMarshaller<?>) method.getResponseMarshaller())
                    .getMessagePrototype());
      }
    }
    return responses;
  }

  @Test
  void every_example_is_answered_as_the_docs_say_and_together_they_call_every_rpc() {
    Map<String, Message> responses = responses();
    List<String> refused = new ArrayList<>();
    Set<String> answered = new TreeSet<>();
    for (Page page : PAGES) {
      clock.moveTo(page.clock());
      for (DocPages.Curl curl : DocPages.curls(page.name())) {
        if (page.later().containsKey(curl.rpc())) {
          clock.moveTo(page.later().get(curl.rpc()));
        }
        TestServer.Reply reply = server.post(curl.rpc(), curl.body());
        if (reply.status() != 200) {
          refused.add(curl.where() + ": " + reply.status() + " " + reply.body());
          continue;
        }
        Message response = ProtoJson.parse(reply.body().toString(), responses.get(curl.rpc()));
        assertThat(response).as(curl.where()).isNotNull();
        answered.add(curl.rpc());
      }
    }

    assertThat(refused).as("examples not answered 200").isEmpty();
    assertThat(answered).containsExactlyInAnyOrderElementsOf(new TreeSet<>(responses.keySet()));
  }
}
