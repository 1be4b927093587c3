package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.server.admission.AdmissionSettings;
import io.varve.server.admission.WriteConcurrency;
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
 * More writers than the server's limit of concurrent writes of one RPC: those beyond it are refused
 * at once with RESOURCE_EXHAUSTED naming the limit, before their bodies are read, and the admitted
 * ones complete. The queue-delay bound is set out of reach (a minute) so that only the concurrency
 * limit refuses, and writes to Cassandra are squeezed so that writes stay in flight long enough.
 */
class WriteConcurrencyIT {

  static final String NS = "write_concurrency_it";
  static final int LIMIT = WriteConcurrency.MIN_LIMIT;
  static TestServer server;

  @BeforeAll
  static void start() {
    ServerSettings settings =
        WriteBacklogIT.squeezedWrites()
            .withAdmission(
                new AdmissionSettings(
                    512L * 1024 * 1024,
                    8L * 1024 * 1024,
                    Duration.ofMinutes(1),
                    64L * 1024 * 1024,
                    LIMIT));
    server = new TestServer(settings, "varve_write_concurrency_it", NS);
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
  void writes_beyond_the_concurrency_limit_are_refused_at_once_and_admitted_ones_complete()
      throws Exception {
    int writers = 3 * LIMIT;
    Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    List<String> refusals = new CopyOnWriteArrayList<>();
    List<Long> refusalMillis = new CopyOnWriteArrayList<>();
    List<String> unexpected = new CopyOnWriteArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<?>> futures = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      byte[] body = AdmissionIT.largeWrite(NS, 200 + w).getBytes(StandardCharsets.UTF_8);
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < 3; i++) {
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
        "write concurrency: statuses="
            + statuses
            + " refused ms="
            + refusalMillis.stream().sorted().toList());
    assertThat(unexpected).isEmpty();
    assertThat(statuses.keySet()).containsExactlyInAnyOrder(200, 429);
    assertThat(refusals)
        .allSatisfy(
            body ->
                assertThat(body)
                    .contains("\"code\":\"RESOURCE_EXHAUSTED\"")
                    .contains("WriteEventRecordsSync writes are in flight")
                    .contains("server.admission.maxConcurrentWrites"));
    assertThat(refusalMillis.stream().sorted().toList().get(refusalMillis.size() / 2))
        .as("refused before any work: well under the time one admitted write takes here")
        .isLessThan(1_000);
    assertThat(server.metric("varve_admission_refused_total\\{[^}]*reason=\"concurrency\"[^}]*\\}"))
        .isEqualTo(refusals.size());
    assertThat(server.post("WriteEventRecordsSync", AdmissionIT.largeWrite(NS, 999)).status())
        .as("writes are admitted again once the writers are done")
        .isEqualTo(200);
    assertThat(server.metric("varve_admission_write_inflight\\{rpc=\"WriteEventRecordsSync\"\\}"))
        .isZero();
  }
}
