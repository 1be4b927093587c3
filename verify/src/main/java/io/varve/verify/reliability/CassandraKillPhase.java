package io.varve.verify.reliability;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * kill -9 of Cassandra during synchronous writes: writers run, the node is SIGKILLed, writes fail (503 or
 * per-event UNAVAILABLE) while it is down, it restarts and replays its commit log, writes resume, and every event
 * the server acknowledged must then be readable with its value. With the commit log in batch mode an acknowledged
 * write was fsynced first, so nothing acknowledged may be missing.
 */
final class CassandraKillPhase implements Phase {

  private static final Duration RECOVERY_LIMIT = Duration.ofMinutes(2);

  private final Duration writeBeforeKill;
  private final Duration writeAfterRestart;

  CassandraKillPhase(Duration writeBeforeKill, Duration writeAfterRestart) {
    this.writeBeforeKill = writeBeforeKill;
    this.writeAfterRestart = writeAfterRestart;
  }

  @Override
  public String name() {
    return "cassandra_kill";
  }

  @Override
  public void run(VerifyEnvironment env, Results results) throws Exception {
    VarveClient client = env.client();
    String namespace = env.namespace("ckill");
    client.createNamespace(namespace);
    Instant from = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    EventLedger ledger = new EventLedger();
    EventWriters writers = new EventWriters(client, namespace, ledger, 100, 16, false);
    writers.start(4);
    writers.awaitFirstAcknowledgement(Duration.ofMinutes(1));
    Thread.sleep(writeBeforeKill.toMillis());

    results.put(name() + ".acknowledged_before_kill", ledger.acknowledgedCount());
    long pid = env.cassandra().status().pid();
    env.cassandra().kill();
    results.put(name() + ".killed", "cassandra pid=" + pid + " signal=KILL");
    Thread.sleep(2000);
    long restartStarted = System.nanoTime();
    env.cassandra().start();
    env.cassandra().awaitReady(Duration.ofMinutes(3));
    results.put(name() + ".restart_seconds", (System.nanoTime() - restartStarted) / 1e9);
    int acknowledgedAtRestart = ledger.acknowledgedCount();
    // the server's driver reconnects on its own schedule (exponential, up to a minute apart): wait for it
    long ready = System.nanoTime();
    long recoveryDeadline = ready + RECOVERY_LIMIT.toNanos();
    while (ledger.acknowledgedCount() == acknowledgedAtRestart && System.nanoTime() < recoveryDeadline) {
      Thread.sleep(100);
    }
    boolean recovered = ledger.acknowledgedCount() > acknowledgedAtRestart;
    results.put(name() + ".server_recovery_seconds", recovered ? (System.nanoTime() - ready) / 1e9 : -1.0);
    results.check(name() + ".server_recovery_seconds", recovered,
        "writes acknowledged again within " + RECOVERY_LIMIT.toSeconds() + " s of Cassandra being ready");
    Thread.sleep(writeAfterRestart.toMillis());
    writers.stop(Duration.ofMinutes(1));
    int acknowledgedAfterRestart = ledger.acknowledgedCount() - acknowledgedAtRestart;
    results.put(name() + ".acknowledged_after_restart", acknowledgedAfterRestart);
    results.put(name() + ".failed_batches", writers.toRetry().size() + writers.unanswered().size());
    results.put(name() + ".status_5xx_other_than_503", writers.status5xx());
    results.check(name() + ".status_5xx_other_than_503", writers.status5xx() == 0,
        "0 (a store that is down is 503 UNAVAILABLE)");

    if (writers.firstError() != null) {
      results.put(name() + ".first_error", writers.firstError().replace('\n', ' '));
    }
    EventLedger.Reconciliation outcome = ledger.reconcile(
        writers.readBack(from, Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)), false);
    outcome.report(name(), results);
    results.check(name() + ".acknowledged", outcome.acknowledged() > 0, "> 0");
  }
}
