package io.varve.core.read;

/**
 * The time budget of one read call, as the server that started it sees it: it can be cancelled when
 * the caller gives up, tells whether it was, and is closed when the call ends. {@link ScanBudget}
 * (TimeSeries reads, several fetches in flight) and the KeyValue page reads' budget (one fetch in
 * flight) implement it.
 */
public interface CallBudget {

  /** The caller gave up (its deadline passed, or it cancelled): stops the read. */
  void cancel();

  /** Whether the caller gave up. */
  boolean cancelled();

  /**
   * Whether the caller's deadline has passed: a call stopped then ends as past its deadline, not as
   * cancelled by its caller.
   */
  boolean pastCallerDeadline();

  /** Stops the budget's timers; the call is over. */
  void close();
}
