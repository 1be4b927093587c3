package io.varve.verify.reliability;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * kill -9 of the Varve server during writes: writers run until the server is SIGKILLed, each
 * keeping the batch whose request got no answer; the server restarts, the unanswered batches (and
 * any answered with errors) are sent again, as a client retries, and every event sent must then be
 * present exactly once, with its value.
 */
final class ServerKillPhase extends KillPhase {

  ServerKillPhase(Duration writeBeforeKill) {
    super("server_kill", Target.SERVER, "skill", writeBeforeKill, true);
  }

  /**
   * With a random offset, so that the kill lands at a different point of the requests on each run.
   */
  @Override
  Duration writeBeforeKill() {
    return super.writeBeforeKill().plusMillis(ThreadLocalRandom.current().nextInt(1000));
  }

  @Override
  void afterKill(EventWriters writers, EventLedger ledger, Results results)
      throws InterruptedException {
    writers.awaitStopped(Duration.ofMinutes(1));
    results.put(name() + ".acknowledged_before_kill", ledger.acknowledgedCount());
    results.put(name() + ".unanswered_batches", writers.unanswered().size());
    results.put(name() + ".batches_with_errors", writers.toRetry().size());
    results.check(
        name() + ".unanswered_batches",
        !writers.unanswered().isEmpty(),
        "> 0 (the kill landed while requests were in flight)");
  }

  @Override
  void afterRestart(EventWriters writers, EventLedger ledger, Results results) throws Exception {
    // the writers stopped at the kill: what they left is what a client would send again
    List<List<TestEvent>> resend = new ArrayList<>(writers.unanswered());
    resend.addAll(writers.toRetry());
    int resent = 0;
    for (List<TestEvent> batch : resend) {
      boolean written = false;
      for (int attempt = 0; attempt < 10 && !written; attempt++) {
        try {
          written = writers.send(batch);
        } catch (IOException e) {
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
  }

  @Override
  void check(EventLedger.Reconciliation outcome, Results results) {
    results.check(
        name() + ".read", outcome.read() == outcome.sent(), "read = sent (" + outcome.sent() + ")");
  }
}
