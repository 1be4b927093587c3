package io.varve.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class VarveClientBuilderTest {

  @Test
  void endpoints_are_host_and_port_and_bad_ones_are_named() {
    assertThatThrownBy(() -> VarveClient.builder().endpoints("localhost"))
        .hasMessage("endpoint: \"localhost\" (expected: host:port, such as 127.0.0.1:8080)");
    assertThatThrownBy(() -> VarveClient.builder().endpoints("http://localhost:8080"))
        .hasMessageStartingWith("endpoint: \"http://localhost:8080\"");
    assertThatThrownBy(() -> VarveClient.builder().endpoint(URI.create("ftp://h:21")))
        .hasMessage("endpoint: \"ftp://h:21\" (expected: http://host:port or https://host:port)");
    assertThatThrownBy(() -> VarveClient.builder().build())
        .hasMessage("endpoints: none (expected: at least one host:port)");
  }

  @Test
  void settings_out_of_range_are_refused_before_anything_starts() {
    assertThatThrownBy(() -> VarveClient.builder().defaultDeadline(Duration.ZERO))
        .hasMessage("deadline: PT0S (expected: a positive duration)");
    assertThatThrownBy(() -> VarveClient.builder().compressionThreshold(0))
        .hasMessage("compressionThreshold: 0 (expected: at least 1 byte)");
    assertThatThrownBy(() -> VarveClient.builder().connectionsPerEndpoint(0))
        .hasMessage("connectionsPerEndpoint: 0 (expected: 1..64)");
    assertThatThrownBy(
            () ->
                VarveClient.builder()
                    .endpoints("127.0.0.1:1")
                    .clientFactory(com.linecorp.armeria.client.ClientFactory.ofDefault())
                    .connectionsPerEndpoint(2)
                    .build())
        .hasMessageContaining("connectionsPerEndpoint: 2 and a caller's ClientFactory");
    assertThatThrownBy(() -> VarveClient.builder().tls(Path.of("/no/such/ca.pem")))
        .hasMessageContaining("expected: a readable PEM file");
    assertThatThrownBy(
            () -> VarveClient.builder().retries(1, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("initial <= max");
  }

  @Test
  void a_client_is_built_without_connecting_and_closes() {
    try (VarveClient client =
        VarveClient.builder()
            .endpoint(URI.create("https://varve.example:8443"))
            .endpoints("127.0.0.1:1", "[::1]:2")
            .build()) {
      assertThat(client.counters().calls()).isZero();
    }
  }
}
