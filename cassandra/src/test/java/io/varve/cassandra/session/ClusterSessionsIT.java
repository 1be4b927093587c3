package io.varve.cassandra.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.TestSessions;
import io.varve.core.error.VarveException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sessions of several clusters on the test Cassandra: a cluster that cannot be reached leaves
 * the others usable and answers UNAVAILABLE naming itself while the server keeps trying it.
 */
class ClusterSessionsIT {

  @Test
  void a_cluster_that_cannot_be_reached_is_unavailable_by_name_and_the_others_serve()
      throws Exception {
    int nowhere;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      nowhere = socket.getLocalPort();
    }
    CassandraSettings reachable = TestSessions.settings();
    CassandraSettings down =
        reachable.withContactPoints(List.of(new InetSocketAddress("127.0.0.1", nowhere)));
    try (CqlSession defaultSession = TestSessions.open();
        ClusterSessions sessions =
            new ClusterSessions(
                defaultSession,
                List.of(
                    new CassandraCluster("analytics", reachable),
                    new CassandraCluster("cold", down)),
                name -> List.of(),
                Clock.systemUTC())) {
      assertThat(sessions.session(ClusterSessions.DEFAULT)).isSameAs(defaultSession);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (sessions.states().get("analytics").session().isEmpty()
          && Instant.now().isBefore(deadline)) {
        Thread.sleep(100);
      }
      assertThat(
              sessions
                  .session("analytics")
                  .execute("SELECT release_version FROM system.local")
                  .one())
          .isNotNull();

      assertThat(sessions.names()).containsExactly("analytics", "cold");
      assertThat(sessions.states().get("cold").error())
          .hasValueSatisfying(e -> assertThat(e).isNotBlank());
      assertThatThrownBy(() -> sessions.session("cold"))
          .isInstanceOfSatisfying(
              VarveException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(VarveException.Kind.UNAVAILABLE);
                assertThat(e.getMessage()).contains("cassandra cluster 'cold' cannot be reached");
              });
      // and tried again, every RETRY
      Instant firstFailure = sessions.states().get("cold").since();
      Instant retryDeadline = Instant.now().plus(ClusterSessions.RETRY.multipliedBy(3));
      while (sessions.states().get("cold").since().equals(firstFailure)
          && Instant.now().isBefore(retryDeadline)) {
        Thread.sleep(100);
      }
      assertThat(sessions.states().get("cold").since()).isAfter(firstFailure);
      assertThatThrownBy(() -> sessions.session("elsewhere"))
          .isInstanceOfSatisfying(
              VarveException.class, e -> assertThat(e.getMessage()).contains("analytics, cold"));
    }
  }
}
