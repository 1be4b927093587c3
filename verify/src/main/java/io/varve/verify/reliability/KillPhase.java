package io.varve.verify.reliability;

import io.varve.local.LocalServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Function;

/**
 * kill -9 of one local server during writes: writers run, the server ({@link Target}) is SIGKILLed,
 * it restarts, and every event is read back and reconciled with what was acknowledged. The loop is
 * the same for every target; what happens around the kill and the restart, and what the read-back
 * must show, is the subclass's.
 */
abstract class KillPhase implements Phase {

  /**
   * A server a phase kills.
   *
   * @param name how the {@code .killed} result names it
   * @param server the server, of the run's environment
   * @param restartTimeout how long it may take to answer again after its restart
   */
  record Target(
      String name, Function<VerifyEnvironment, LocalServer> server, Duration restartTimeout) {

    /** The run's Cassandra, which replays its commit log at the restart. */
    static final Target CASSANDRA =
        new Target("cassandra", VerifyEnvironment::cassandra, Duration.ofMinutes(3));

    /** The run's Varve server. */
    static final Target SERVER =
        new Target("server", VerifyEnvironment::server, VerifyEnvironment.SERVER_START_TIMEOUT);
  }

  private final String name;
  private final Target target;
  private final String namespaceTag;
  private final Duration writeBeforeKill;
  private final boolean resendsUnanswered;

  /**
   * @param name the phase's name, the prefix of its results
   * @param target the server it kills
   * @param namespaceTag the tag of this phase's namespace, unique among the phases
   * @param writeBeforeKill how long the writers write, from the first acknowledgement, before the
   *     kill
   * @param resendsUnanswered true: the writers stop at the kill and the batches they got no answer
   *     to are sent again, so every event sent must be read back; false: they write through the
   *     outage, and only acknowledged events must be read back
   */
  KillPhase(
      String name,
      Target target,
      String namespaceTag,
      Duration writeBeforeKill,
      boolean resendsUnanswered) {
    this.name = name;
    this.target = target;
    this.namespaceTag = namespaceTag;
    this.writeBeforeKill = writeBeforeKill;
    this.resendsUnanswered = resendsUnanswered;
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * How long the writers write before the kill; {@code writeBeforeKill} unless a phase varies it.
   */
  Duration writeBeforeKill() {
    return writeBeforeKill;
  }

  /** After the writers' first acknowledgement and {@link #writeBeforeKill()}, before the kill. */
  void beforeKill(EventLedger ledger, Results results) {}

  /** Between the kill and the restart. */
  abstract void afterKill(EventWriters writers, EventLedger ledger, Results results)
      throws Exception;

  /**
   * After the restart, before the events are read back: the writers must have stopped at its end.
   */
  abstract void afterRestart(EventWriters writers, EventLedger ledger, Results results)
      throws Exception;

  /**
   * The checks of the read-back events beside those {@link EventLedger.Reconciliation#report}
   * makes.
   */
  abstract void check(EventLedger.Reconciliation outcome, Results results);

  @Override
  public final void run(VerifyEnvironment env, Results results) throws Exception {
    VarveClient client = env.client();
    String namespace = env.namespace(namespaceTag);
    client.createNamespace(namespace);
    Instant from = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    EventLedger ledger = new EventLedger();
    EventWriters writers = new EventWriters(client, namespace, ledger, 100, 16, resendsUnanswered);
    writers.start(4);
    writers.awaitFirstAcknowledgement(Duration.ofMinutes(1));
    Thread.sleep(writeBeforeKill().toMillis());

    beforeKill(ledger, results);
    LocalServer server = target.server().apply(env);
    long pid = server.status().pid();
    server.kill();
    results.put(name() + ".killed", target.name() + " pid=" + pid + " signal=KILL");
    afterKill(writers, ledger, results);

    long restartStarted = System.nanoTime();
    server.start();
    server.awaitReady(target.restartTimeout());
    results.put(name() + ".restart_seconds", (System.nanoTime() - restartStarted) / 1e9);
    afterRestart(writers, ledger, results);

    if (writers.firstError() != null) {
      results.put(name() + ".first_error", writers.firstError().replace('\n', ' '));
    }
    EventLedger.Reconciliation outcome =
        ledger.reconcile(
            writers.readBack(
                from, Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)),
            resendsUnanswered);
    outcome.report(name(), results);
    check(outcome, results);
  }
}
