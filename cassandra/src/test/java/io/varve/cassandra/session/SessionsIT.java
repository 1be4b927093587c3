package io.varve.cassandra.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.TestSessions;
import io.varve.core.error.StorageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sessions opened from the settings, on the test Cassandra and on an address where nothing listens.
 */
class SessionsIT {

  @Test
  void a_session_on_the_test_cassandra_has_the_token_map_replica_packing_needs() {
    try (CqlSession session = TestSessions.open()) {
      assertThat(session.getMetadata().getTokenMap()).isPresent();
      assertThat(session.getMetadata().getNodes()).hasSize(1);
    }
  }

  @Test
  void a_cluster_that_cannot_be_reached_fails_the_open_as_unavailable_retryable()
      throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    CassandraSettings nowhere =
        TestSessions.settings()
            .withContactPoints(List.of(new InetSocketAddress("127.0.0.1", port)));

    assertThatThrownBy(() -> Sessions.open(nowhere).toCompletableFuture().join())
        .cause()
        .isInstanceOfSatisfying(
            StorageException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(StorageException.Reason.UNAVAILABLE);
              assertThat(e.retryable()).isTrue();
              assertThat(e.getMessage())
                  .startsWith("storage is unavailable: ")
                  .contains(Integer.toString(port));
            });
  }
}
