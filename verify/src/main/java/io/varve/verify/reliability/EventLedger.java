package io.varve.verify.reliability;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the suite sent and what the server acknowledged, by event id, and the reconciliation of that
 * with what reads return. Thread safe: writers record concurrently.
 */
public final class EventLedger {

  private final Map<String, TestEvent> sent = new ConcurrentHashMap<>();
  private final Map<String, Boolean> acknowledged = new ConcurrentHashMap<>();

  /** Records events as sent (before the request goes out). */
  public void sent(Collection<TestEvent> events) {
    events.forEach(e -> sent.put(e.eventId(), e));
  }

  /**
   * Records an event the server answered as written (in {@code writtenIndexes} of a 200 answer).
   */
  public void acknowledged(TestEvent event) {
    acknowledged.put(event.eventId(), Boolean.TRUE);
  }

  public int sentCount() {
    return sent.size();
  }

  public int acknowledgedCount() {
    return acknowledged.size();
  }

  /**
   * Compares the read-back events with the ledger.
   *
   * @param everySentMustBePresent true when every sent event must be present (after a resend of
   *     every batch left unanswered), false when only acknowledged events must be
   */
  public Reconciliation reconcile(Collection<ReadEvent> readBack, boolean everySentMustBePresent) {
    Map<String, Integer> seen = new HashMap<>();
    int wrongValue = 0;
    int unexpected = 0;
    for (ReadEvent event : readBack) {
      TestEvent expected = sent.get(event.eventId());
      if (expected == null || !expected.timeSeriesId().equals(event.timeSeriesId())) {
        unexpected++;
        continue;
      }
      if (seen.merge(event.eventId(), 1, Integer::sum) == 1
          && !Arrays.equals(expected.value(), event.value())) {
        wrongValue++;
      }
    }
    int missing = 0;
    int unacknowledgedPresent = 0;
    for (String id : sent.keySet()) {
      boolean mustBePresent = everySentMustBePresent || acknowledged.containsKey(id);
      if (!seen.containsKey(id)) {
        missing += mustBePresent ? 1 : 0;
      } else if (!acknowledged.containsKey(id)) {
        unacknowledgedPresent++;
      }
    }
    int duplicated = seen.values().stream().mapToInt(n -> n - 1).sum();
    return new Reconciliation(
        sent.size(),
        acknowledged.size(),
        readBack.size(),
        missing,
        duplicated,
        wrongValue,
        unexpected,
        unacknowledgedPresent);
  }

  /**
   * The outcome of {@link #reconcile}: {@code missing} events that had to be present and are not,
   * {@code duplicated} extra copies of an event, {@code wrongValue} events whose value differs from
   * the one sent, {@code unexpected} events read that were never sent, {@code
   * unacknowledgedPresent} events present although never acknowledged (allowed: a write may land
   * and its answer be lost).
   */
  public record Reconciliation(
      int sent,
      int acknowledged,
      int read,
      int missing,
      int duplicated,
      int wrongValue,
      int unexpected,
      int unacknowledgedPresent) {

    public boolean clean() {
      return missing == 0 && duplicated == 0 && wrongValue == 0 && unexpected == 0;
    }

    /** Prints the counts under {@code prefix.} and checks that the reconciliation is clean. */
    public void report(String prefix, Results results) {
      results.put(prefix + ".sent", sent);
      results.put(prefix + ".acknowledged", acknowledged);
      results.put(prefix + ".read", read);
      results.put(prefix + ".unacknowledged_present", unacknowledgedPresent);
      results.put(prefix + ".missing", missing);
      results.put(prefix + ".duplicated", duplicated);
      results.put(prefix + ".wrong_value", wrongValue);
      results.put(prefix + ".unexpected", unexpected);
      results.check(prefix + ".missing", missing == 0, "0");
      results.check(prefix + ".duplicated", duplicated == 0, "0");
      results.check(prefix + ".wrong_value", wrongValue == 0, "0");
      results.check(prefix + ".unexpected", unexpected == 0, "0");
    }
  }
}
