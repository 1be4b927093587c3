package io.varve.verify.reliability;

import java.time.Duration;

/**
 * kill -9 of Cassandra during synchronous writes: writers run, the node is SIGKILLed, writes fail
 * (503 or per-event UNAVAILABLE) while it is down, it restarts and replays its commit log, writes
 * resume, and every event the server acknowledged must then be readable with its value. With the
 * commit log in batch mode an acknowledged write was fsynced first, so nothing acknowledged may be
 * missing.
 */
final class CassandraKillPhase extends KillPhase {

  private static final Duration RECOVERY_LIMIT = Duration.ofMinutes(2);

  private final Duration writeAfterRestart;

  CassandraKillPhase(Duration writeBeforeKill, Duration writeAfterRestart) {
    super("cassandra_kill", Target.CASSANDRA, "ckill", writeBeforeKill, false);
    this.writeAfterRestart = writeAfterRestart;
  }

  @Override
  void beforeKill(EventLedger ledger, Results results) {
    results.put(name() + ".acknowledged_before_kill", ledger.acknowledgedCount());
  }

  @Override
  void afterKill(EventWriters writers, EventLedger ledger, Results results)
      throws InterruptedException {
    Thread.sleep(2000);
  }

  @Override
  void afterRestart(EventWriters writers, EventLedger ledger, Results results) throws Exception {
    int acknowledgedAtRestart = ledger.acknowledgedCount();
    // the server's driver reconnects on its own schedule (exponential, up to a minute apart): wait
    // for it
    long ready = System.nanoTime();
    long recoveryDeadline = ready + RECOVERY_LIMIT.toNanos();
    while (ledger.acknowledgedCount() == acknowledgedAtRestart
        && System.nanoTime() < recoveryDeadline) {
      Thread.sleep(100);
    }
    boolean recovered = ledger.acknowledgedCount() > acknowledgedAtRestart;
    results.put(
        name() + ".server_recovery_seconds", recovered ? (System.nanoTime() - ready) / 1e9 : -1.0);
    results.check(
        name() + ".server_recovery_seconds",
        recovered,
        "writes acknowledged again within "
            + RECOVERY_LIMIT.toSeconds()
            + " s of Cassandra being ready");
    Thread.sleep(writeAfterRestart.toMillis());
    writers.stop(Duration.ofMinutes(1));
    int acknowledgedAfterRestart = ledger.acknowledgedCount() - acknowledgedAtRestart;
    results.put(name() + ".acknowledged_after_restart", acknowledgedAfterRestart);
    results.put(name() + ".failed_batches", writers.toRetry().size() + writers.unanswered().size());
    results.put(name() + ".status_5xx_other_than_503", writers.status5xx());
    results.check(
        name() + ".status_5xx_other_than_503",
        writers.status5xx() == 0,
        "0 (a store that is down is 503 UNAVAILABLE)");
  }

  @Override
  void check(EventLedger.Reconciliation outcome, Results results) {
    results.check(name() + ".acknowledged", outcome.acknowledged() > 0, "> 0");
  }
}
