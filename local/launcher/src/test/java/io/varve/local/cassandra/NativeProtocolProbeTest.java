package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class NativeProtocolProbeTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  @Test
  void a_supported_response_means_ready_and_the_request_is_a_v4_options_frame() throws Exception {
    byte[] supported = {(byte) 0x84, 0, 0, 0, 0x06, 0, 0, 0, 0};
    try (ServerSocket server = loopbackServer()) {
      CompletableFuture<byte[]> request = serveOnce(server, supported);

      assertThat(NativeProtocolProbe.answersOptions(address(server), TIMEOUT)).isTrue();
      assertThat(request.get()).containsExactly(4, 0, 0, 0, 5, 0, 0, 0, 0);
    }
  }

  @Test
  void an_error_response_is_not_ready() throws Exception {
    byte[] error = {(byte) 0x84, 0, 0, 0, 0x00, 0, 0, 0, 0};
    try (ServerSocket server = loopbackServer()) {
      serveOnce(server, error);

      assertThat(NativeProtocolProbe.answersOptions(address(server), TIMEOUT)).isFalse();
    }
  }

  @Test
  void a_port_that_accepts_and_closes_is_not_ready() throws Exception {
    try (ServerSocket server = loopbackServer()) {
      serveOnce(server, new byte[0]);

      assertThat(NativeProtocolProbe.answersOptions(address(server), TIMEOUT)).isFalse();
    }
  }

  @Test
  void a_closed_port_is_not_ready() throws Exception {
    InetSocketAddress closed;
    try (ServerSocket server = loopbackServer()) {
      closed = address(server);
    }

    assertThat(NativeProtocolProbe.answersOptions(closed, TIMEOUT)).isFalse();
  }

  private static ServerSocket loopbackServer() throws IOException {
    return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
  }

  private static InetSocketAddress address(ServerSocket server) {
    return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
  }

  private static CompletableFuture<byte[]> serveOnce(ServerSocket server, byte[] response) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (Socket client = server.accept()) {
            byte[] request = new byte[9];
            new DataInputStream(client.getInputStream()).readFully(request);
            client.getOutputStream().write(response);
            return request;
          } catch (IOException e) {
            throw new RuntimeException(e);
          }
        });
  }
}
