package io.varve.verify.reliability;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * kill -9 of the Varve server during writes: writers run until the server is SIGKILLed, each keeping the batch
 * whose request got no answer; the server restarts, the unanswered batches (and any answered with errors) are
 * sent again, as a client retries, and every event sent must then be present exactly once, with its value.
 */
final class ServerKillPhase implements Phase {

  private final Duration writeBeforeKill;

  ServerKillPhase(Duration writeBeforeKill) {
    this.writeBeforeKill = writeBeforeKill;
  }

  @Override
  public String name() {
    return "server_kill";
  }

  @Override
  public void run(VerifyEnvironment env, Results results) throws Exception {
    VarveClient client = env.client();
    String namespace = env.namespace("skill");
    client.createNamespace(namespace);
    Instant from = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    EventLedger ledger = new EventLedger();
    EventWriters writers = new EventWriters(client, namespace, ledger, 100, 16, true);
    writers.start(4);
    writers.awaitFirstAcknowledgement(Duration.ofMinutes(1));
    // a random offset so that the kill lands at a different point of the requests on each run
    Thread.sleep(writeBeforeKill.toMillis() + ThreadLocalRandom.current().nextInt(1000));

    long pid = env.server().pid();
    env.server().kill();
    results.put(name() + ".killed", "server pid=" + pid + " signal=KILL");
    writers.awaitStopped(Duration.ofMinutes(1));
    results.put(name() + ".acknowledged_before_kill", ledger.acknowledgedCount());
    List<List<TestEvent>> resend = new ArrayList<>(writers.unanswered());
    results.put(name() + ".unanswered_batches", resend.size());
    resend.addAll(writers.toRetry());
    results.put(name() + ".batches_with_errors", writers.toRetry().size());
    results.check(name() + ".unanswered_batches", !writers.unanswered().isEmpty(),
        "> 0 (the kill landed while requests were in flight)");

    long restartStarted = System.nanoTime();
    env.server().start(Duration.ofMinutes(2));
    results.put(name() + ".restart_seconds", (System.nanoTime() - restartStarted) / 1e9);
    int resent = 0;
    for (List<TestEvent> batch : resend) {
      boolean written = false;
      for (int attempt = 0; attempt < 10 && !written; attempt++) {
        try {
          written = writers.send(batch);
        } catch (java.io.IOException e) {
          written = false; // a connection of the pool that the killed server had left open
        }
        resent++;
        if (!written) {
          Thread.sleep(1000);
        }
      }
      results.check(name() + ".resend", written, "every resent batch written within 10 attempts");
    }
    results.put(name() + ".resent_requests", resent);

    if (writers.firstError() != null) {
      results.put(name() + ".first_error", writers.firstError().replace('\n', ' '));
    }
    EventLedger.Reconciliation outcome = ledger.reconcile(
        writers.readBack(from, Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)), true);
    outcome.report(name(), results);
    results.check(name() + ".read", outcome.read() == outcome.sent(), "read = sent (" + outcome.sent() + ")");
  }
}
