package io.varve.server;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The HTTP client of the server's tests. HTTP/1.1: the JDK client's default h2c upgrade has lost
 * its framing on a large {@code /metrics} answer ("Frame type(100) ... exceeds MAX_FRAME_SIZE"),
 * which would fail a test for the client's sake; gRPC tests speak HTTP/2 through the gRPC stack.
 */
public final class TestHttp {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private TestHttp() {}

  /** One client for every test: it pools connections and needs no closing. */
  public static HttpClient client() {
    return CLIENT;
  }
}
