package io.varve.verify.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.local.testing.TestCassandra;
import io.varve.local.testing.TestOpenSearch;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API fuzz of the test suite: a real server on the test Cassandra and OpenSearch, 4,000
 * generated requests of every RPC (TimeSeries, KeyValue, control plane) over HTTP/JSON and gRPC
 * with a fixed seed, in two streams at the same time over namespaces of their own, then the checks
 * a user relies on: no 5xx, no dropped connection, the server healthy, stored events, items and
 * namespaces as acknowledged. On failure the message lists each distinct failing request (seed,
 * prefix, case number, request).
 *
 * <p>Slow, and it stays so: within a stream the requests go one at a time because the outcome a
 * case is checked against depends on the cases before it (the store model), and each waits for
 * Cassandra. The suite sends 4,000 requests; {@code ./varve test faults} sends 10,000 of the same
 * seed, the count the suite sent until its time went over 20 minutes.
 */
class ApiFuzzIT {

  /** The seed of the suite's run; {@code -Dvarve.fuzz.seed} runs another. */
  static final long SEED = Long.getLong("varve.fuzz.seed", 20261123L);

  /**
   * 4,000 in the test suite (about 50 s here); {@code ./varve test faults} runs 10,000 (about 130
   * s).
   */
  static final int REQUESTS = Integer.getInteger("varve.fuzz.requests", 4_000);

  /**
   * Two streams of half the requests each, at the same time, over disjoint namespaces: each request
   * waits for Cassandra, and one stream leaves about half of the two cores idle.
   */
  static final int STREAMS = Integer.getInteger("varve.fuzz.streams", 2);

  static final String METADATA = "varve_fuzz_it";
  static final String PREFIX = "fuzzit_";

  static CqlSession cql;
  static VarveServer server;

  @BeforeAll
  static void start() {
    cql =
        CqlSession.builder()
            .addContactPoint(TestCassandra.contactPoint())
            .withLocalDatacenter(TestCassandra.localDatacenter())
            .build();
    // keyspaces of an earlier run: the run's namespaces are named after PREFIX
    for (Row row : cql.execute("SELECT keyspace_name FROM system_schema.keyspaces")) {
      String ks = row.getString("keyspace_name");
      if (ks.startsWith(PREFIX) || ks.equals(METADATA)) {
        cql.execute(
            SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + ks)
                .setTimeout(Duration.ofSeconds(60)));
      }
    }
    ServerSettings base =
        ServerSettings.defaults().toBuilder()
            .openSearchUrls(List.of(URI.create(TestOpenSearch.endpoint())))
            .build();
    CassandraSettings c =
        base.cassandra()
            .withContactPoints(List.of(TestCassandra.contactPoint()))
            .withMetadataKeyspace(METADATA);
    server =
        VarveServer.start(
            base.toBuilder()
                .cassandra(c)
                .port(0)
                .shutdown(ServerSettings.Shutdown.AT_ONCE)
                .build());
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (cql != null) {
      cql.close();
    }
  }

  @Test
  void
      ten_thousand_requests_over_json_and_grpc_leave_no_server_error_and_the_data_as_acknowledged() {
    ApiFuzzer.Settings settings =
        new ApiFuzzer.Settings(
            URI.create("http://127.0.0.1:" + server.port()),
            SEED,
            REQUESTS,
            true,
            PREFIX + Long.toString(System.currentTimeMillis() / 1000 % 100_000, 36) + "_",
            Instant.now().truncatedTo(ChronoUnit.SECONDS),
            STREAMS);

    ApiFuzzer.Result result = ApiFuzzer.run(settings, System.out);

    String report = String.join("\n", result.lines());
    System.out.println(report);
    assertThat(result.sent()).isEqualTo(REQUESTS);
    assertThat(result.byRpc().keySet())
        .as("RPCs fuzzed")
        .containsExactlyInAnyOrderElementsOf(FuzzPlan.rpcNames());
    assertThat(result.byStatus().keySet()).as("statuses").anyMatch(s -> s.startsWith("grpc."));
    assertThat(result.byStatus().getOrDefault("json.200", 0))
        .as("JSON requests served")
        .isGreaterThan(REQUESTS / 10);
    assertThat(result.byStatus().getOrDefault("grpc.OK", 0))
        .as("gRPC requests served")
        .isGreaterThan(REQUESTS / 20);
    assertThat(result.rowsChecked()).as("rows read back").isGreaterThan(100);
    assertThat(result.itemsChecked()).as("KeyValue items read back").isGreaterThan(50);
    assertThat(result.health()).as("GET /health after the run").isEqualTo("200");
    assertThat(result.serverErrors()).as("5xx answers\n" + report).isZero();
    assertThat(result.droppedConnections()).as("dropped connections\n" + report).isZero();
    assertThat(result.checkFailures())
        .as("stored data against what was acknowledged\n" + report)
        .isEmpty();
  }
}
