package io.varve.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The port probe every launcher and the tests' cluster use before starting a server. */
class LoopbackTest {

  @Test
  void a_port_is_free_only_while_nothing_listens_on_it() throws Exception {
    int port;
    try (ServerSocket listener = new ServerSocket()) {
      listener.bind(new InetSocketAddress(Loopback.ADDRESS, 0));
      port = listener.getLocalPort();
      assertThat(Loopback.portFree(Loopback.ADDRESS, port)).as("while listening").isFalse();
    }
    assertThat(Loopback.portFree(Loopback.ADDRESS, port)).as("once closed").isTrue();
    assertThat(Loopback.portFree(Loopback.ADDRESS, port))
        .as("the probe closes its socket")
        .isTrue();
  }
}
