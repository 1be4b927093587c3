package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.ConnectionPoolListener;
import com.linecorp.armeria.client.WebClient;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpRequestWriter;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.common.SessionProtocol;
import io.netty.util.AttributeMap;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client that cancels many calls on one HTTP/2 connection, as a hedging client cancels the loser
 * of every hedged call and any client cancels calls past their deadline, keeps its connection: the
 * server's guard against rapid-reset floods must not close it (the HTTP layer's default of 400
 * resets a minute did, failing every call on it).
 */
class StreamResetIT {

  static final int RESETS = 1_000;

  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_stream_reset_it");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void a_thousand_cancelled_calls_on_one_connection_leave_it_open_for_the_next_call()
      throws Exception {
    AtomicInteger opened = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    ConnectionPoolListener counting =
        new ConnectionPoolListener() {
          @Override
          public void connectionOpen(
              SessionProtocol protocol,
              InetSocketAddress remote,
              InetSocketAddress local,
              AttributeMap attrs) {
            opened.incrementAndGet();
          }

          @Override
          public void connectionClosed(
              SessionProtocol protocol,
              InetSocketAddress remote,
              InetSocketAddress local,
              AttributeMap attrs) {
            closed.incrementAndGet();
          }
        };
    try (ClientFactory factory =
        ClientFactory.builder()
            .connectionPoolListener(counting)
            .maxNumEventLoopsPerEndpoint(1)
            .build()) {
      WebClient client =
          WebClient.builder("h2c://127.0.0.1:" + server.server.port())
              .factory(factory)
              .responseTimeout(Duration.ofSeconds(30))
              .build();
      assertThat(call(client).status().code()).isEqualTo(200);
      for (int batch = 0; batch < RESETS / 100; batch++) {
        List<HttpResponse> cancelled = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          // headers and part of a body, then a reset: the server waits for the rest when it comes
          HttpRequestWriter request =
              HttpRequest.streaming(
                  RequestHeaders.builder(HttpMethod.POST, "/v1/ListNamespaces")
                      .contentType(MediaType.JSON)
                      .build());
          HttpResponse response = client.execute(request);
          request.write(HttpData.ofUtf8("{"));
          request.whenConsumed().join();
          request.abort();
          cancelled.add(response);
        }
        for (HttpResponse response : cancelled) {
          response.aggregate().handle((r, e) -> null).join();
        }
      }
      assertThat(call(client).status().code()).isEqualTo(200);
      assertThat(opened.get()).as("connections opened").isEqualTo(1);
      assertThat(closed.get()).as("connections closed").isZero();
    }
  }

  private static AggregatedHttpResponse call(WebClient client) {
    return client
        .prepare()
        .post("/v1/ListNamespaces")
        .content(MediaType.JSON, "{}")
        .execute()
        .aggregate()
        .join();
  }
}
