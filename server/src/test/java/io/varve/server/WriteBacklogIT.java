package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.cassandra.session.CassandraSettings;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.config.ServerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * When the cluster is slower than the writers, admitted writes wait in the server for their turn to
 * Cassandra; once the oldest has waited longer than {@code server.admission.maxWriteQueueDelay},
 * further writes are refused at once with RESOURCE_EXHAUSTED while the admitted ones complete. The
 * writes to Cassandra are squeezed here (one batch of at most 1 MiB in flight) so that a queue
 * forms on any machine.
 */
class WriteBacklogIT {

  static final String NS = "write_backlog_it";
  static TestServer server;

  /**
   * The default settings with writes to Cassandra squeezed to one batch of at most 1 MiB in flight,
   * so that writes queue in the server on any machine.
   */
  static ServerSettings squeezedWrites() {
    ServerSettings defaults = ServerSettings.defaults();
    CassandraSettings c = defaults.cassandra();
    return defaults.toBuilder()
        .cassandra(
            new CassandraSettings(
                c.contactPoints(),
                c.localDatacenter(),
                c.username(),
                c.password(),
                c.tls(),
                c.compression(),
                c.requestTimeout(),
                c.schemaTimeout(),
                c.metadataKeyspace(),
                c.replication(),
                1,
                1024 * 1024,
                c.compressionThreshold()))
        .build();
  }

  @BeforeAll
  static void start() {
    ServerSettings settings =
        squeezedWrites().toBuilder()
            .admission(
                new AdmissionSettings(
                    512L * 1024 * 1024,
                    8L * 1024 * 1024,
                    Duration.ofMillis(50),
                    64L * 1024 * 1024,
                    AdmissionSettings.DEFAULT_BUFFERED_WRITE_RETRY))
            .build();
    server = new TestServer(settings, "varve_write_backlog_it", NS);
    assertThat(
            server
                .post(
                    "CreateNamespace",
                    "{\"namespace\":\""
                        + NS
                        + "\",\"persistenceConfiguration\":[{\"id\":\"PRIMARY_STORAGE\"}]}")
                .status())
        .isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void writes_beyond_the_queue_delay_are_refused_at_once_and_admitted_ones_complete()
      throws Exception {
    int writers = 8;
    Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    List<String> refusals = new CopyOnWriteArrayList<>();
    List<Long> refusalMillis = new CopyOnWriteArrayList<>();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      byte[] body = AdmissionIT.largeWrite(NS, 100 + w).getBytes(StandardCharsets.UTF_8);
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 4; i++) {
                  try {
                    AdmissionIT.Answer r =
                        AdmissionIT.Answer.post(
                            server.server.port(), "/v1/WriteEventRecordsSync", body);
                    statuses
                        .computeIfAbsent(r.status(), s -> new AtomicInteger())
                        .incrementAndGet();
                    if (r.status() == 429) {
                      refusals.add(r.body());
                      refusalMillis.add(r.millisAfterBody());
                    } else if (r.status() != 200) {
                      unexpected.add(r.status() + " " + r.body());
                    }
                  } catch (Exception e) {
                    unexpected.add("no answer: " + e);
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : futures) {
      f.get(5, TimeUnit.MINUTES);
    }
    pool.shutdown();

    System.out.println(
        "write backlog: statuses="
            + statuses
            + " refused ms="
            + refusalMillis.stream().sorted().toList());
    assertThat(unexpected).isEmpty();
    assertThat(statuses.keySet()).containsExactlyInAnyOrder(200, 429);
    assertThat(refusals)
        .anySatisfy(
            body ->
                assertThat(body)
                    .contains("\"code\":\"RESOURCE_EXHAUSTED\"")
                    .contains("for their turn to the store")
                    .contains("server.admission.maxWriteQueueDelay"));
    // refused before any work: well under the time one admitted write takes here
    assertThat(refusalMillis.stream().sorted().toList().get(refusalMillis.size() / 2))
        .isLessThan(1_000);
    assertThat(server.post("WriteEventRecordsSync", AdmissionIT.largeWrite(NS, 999)).status())
        .as("writes are admitted again once the queue has drained")
        .isEqualTo(200);
  }
}
