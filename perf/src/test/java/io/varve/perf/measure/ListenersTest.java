package io.varve.perf.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListenersTest {

  private static final String HEADER =
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout"
          + " inode";

  @Test
  void finds_this_jvm_listening_on_a_port_of_its_own() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "needs /proc");
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertThat(Listeners.pidOf(socket.getLocalPort())).hasValue(ProcessHandle.current().pid());
    }
  }

  @Test
  void finds_nothing_on_a_port_nobody_listens_on() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    assertThat(Listeners.pidOf(port)).isEmpty();
  }

  @Test
  void takes_the_listening_socket_not_a_connection_on_the_same_port() {
    List<String> table =
        List.of(
            HEADER,
            // a connection from port 9042 (ESTABLISHED, 01) comes first
            "   0: 0100007F:2352 0100007F:B1C2 01 00000000:00000000 00:00000000 00000000     0"
                + "        0 1111 1 0000000000000000 20 4 30 10 -1",
            "   1: 0100007F:2352 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0"
                + "        0 2222 1 0000000000000000 100 0 0 10 0");
    assertThat(Listeners.listeningInode(table, 9042)).hasValue(2222);
    assertThat(Listeners.listeningInode(table, 9043)).isEmpty();
    assertThat(Listeners.listeningInode(List.of(HEADER), 9042)).isEmpty();
  }
}
