package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.varve.local.testing.TestCassandra;
import io.varve.server.config.ServerSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What the latency-objective tests of both services share: a server that reaches the real test
 * Cassandra through a {@link DelayingProxy}, so that a test can make every answer of Cassandra
 * slow, and the checks they make of it (namespaces created or refused, the objectives a namespace
 * shows, no read left running once its caller gave up).
 */
final class SloFixture implements AutoCloseable {

  private final DelayingProxy proxy;
  private final TestServer server;

  private SloFixture(DelayingProxy proxy, TestServer server) {
    this.proxy = proxy;
    this.server = server;
  }

  /** A server of the default settings, metadata in {@code metadataKeyspace}. */
  static SloFixture start(String metadataKeyspace, String... keyspaces) throws Exception {
    DelayingProxy proxy = new DelayingProxy(TestCassandra.contactPoint());
    return new SloFixture(
        proxy,
        new TestServer(
            ServerSettings.defaults(),
            Clock.systemUTC(),
            metadataKeyspace,
            session -> {},
            proxy.address(),
            keyspaces));
  }

  TestServer server() {
    return server;
  }

  /** Every answer of Cassandra from now on comes {@code delay} late. */
  void delay(Duration delay) {
    proxy.delay(delay);
  }

  /** Creates a namespace (CreateNamespace's JSON body), which must succeed. */
  void create(String namespace) {
    TestServer.Reply reply = server.post("CreateNamespace", namespace);
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
  }

  /** CreateNamespace of {@code namespace} is refused naming {@code field}; nothing is created. */
  void assertRefused(String name, String namespace, String field) {
    TestServer.Reply reply = server.post("CreateNamespace", namespace);

    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(400);
    assertThat(reply.errorField()).isEqualTo(field);
    assertThat(server.post("GetNamespace", "{\"namespace\": \"" + name + "\"}").status())
        .isEqualTo(404);
  }

  /**
   * The {@code slos} GetNamespace shows for a namespace, found under its first persistence
   * configuration's {@code configPath} ({@code config}, or {@code physicalStorage, config}).
   */
  JsonNode slos(String namespace, String... configPath) {
    JsonNode config =
        server
            .post("GetNamespace", "{\"namespace\": \"" + namespace + "\"}")
            .body()
            .path("persistenceConfiguration")
            .get(0);
    for (String field : configPath) {
      config = config.path(field);
    }
    return config.path("slos");
  }

  /**
   * After a call its caller gave up: within 10 s, counter {@code cancelled} moved past {@code
   * cancelledBefore} (fetches cancelled or refused) and gauge {@code running} is back at 0 (no read
   * left running).
   */
  void assertCancelledAndNothingRunning(String cancelled, double cancelledBefore, String running)
      throws InterruptedException {
    assertCancelledAndNothingRunning(server, cancelled, cancelledBefore, running);
  }

  /**
   * As above, on {@code server}. Waits, because the counter moves after the answer: a fetch's
   * cancellation completes it (and so answers the call) before the cancellation is counted.
   */
  static void assertCancelledAndNothingRunning(
      TestServer server, String cancelled, double cancelledBefore, String running)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while ((server.metric(running) > 0 || server.metric(cancelled) == cancelledBefore)
        && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(server.metric(running)).as("reads left running").isZero();
    assertThat(server.metric(cancelled) - cancelledBefore)
        .as("fetches cancelled or refused once the caller gave up")
        .isGreaterThanOrEqualTo(1);
  }

  @Override
  public void close() throws Exception {
    server.close();
    proxy.close();
  }
}
