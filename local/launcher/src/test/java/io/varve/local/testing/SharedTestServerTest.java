package io.varve.local.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

class SharedTestServerTest {

  private final SharedTestServer<String> http =
      new SharedTestServer<>(
          "varve.test.example", -1, SharedTestServer::httpEndpoint, () -> "http://127.0.0.1:1");

  @Test
  void an_external_http_server_is_given_as_host_and_port() {
    assertThat(SharedTestServer.httpEndpoint(http.parse("127.0.0.2:9200")))
        .isEqualTo("http://127.0.0.2:9200");
  }

  @Test
  void a_server_without_default_port_needs_one_and_no_path() {
    for (String bad : new String[] {"127.0.0.2", "127.0.0.2:9200/x", ":9200"}) {
      assertThatThrownBy(() -> http.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("varve.test.example: " + bad + " (expected: host:port)");
    }
  }

  @Test
  void the_server_is_resolved_once() {
    int[] started = {0};
    SharedTestServer<URI> counted =
        new SharedTestServer<>(
            "varve.test.unset",
            -1,
            uri -> uri,
            () -> URI.create("tcp://127.0.0.1:" + ++started[0]));

    assertThat(counted.get()).isSameAs(counted.get());
    assertThat(started[0]).isEqualTo(1);
  }
}
