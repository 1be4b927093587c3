package io.varve.verify.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventLedgerTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00.123Z");

  private static TestEvent event(String id) {
    return new TestEvent("s", T, id, ("value-" + id).getBytes(StandardCharsets.UTF_8));
  }

  private static ReadEvent read(TestEvent event) {
    return new ReadEvent(
        event.timeSeriesId(), event.eventTime().toString(), event.eventId(), event.value());
  }

  @Test
  void every_acknowledged_event_read_back_once_is_clean() {
    EventLedger ledger = new EventLedger();
    TestEvent a = event("a");
    TestEvent b = event("b");
    ledger.sent(List.of(a, b));
    ledger.acknowledged(a);
    ledger.acknowledged(b);

    EventLedger.Reconciliation outcome = ledger.reconcile(List.of(read(b), read(a)), true);

    assertThat(outcome.clean()).isTrue();
    assertThat(outcome).isEqualTo(new EventLedger.Reconciliation(2, 2, 2, 0, 0, 0, 0, 0));
  }

  @Test
  void an_acknowledged_event_not_read_back_is_missing() {
    EventLedger ledger = new EventLedger();
    TestEvent a = event("a");
    ledger.sent(List.of(a));
    ledger.acknowledged(a);

    EventLedger.Reconciliation outcome = ledger.reconcile(List.of(), false);

    assertThat(outcome.missing()).isEqualTo(1);
    assertThat(outcome.clean()).isFalse();
  }

  @Test
  void an_unacknowledged_event_may_be_absent_unless_every_sent_event_must_be_present() {
    EventLedger ledger = new EventLedger();
    TestEvent lost = event("lost");
    ledger.sent(List.of(lost));

    assertThat(ledger.reconcile(List.of(), false).clean()).isTrue();
    assertThat(ledger.reconcile(List.of(), true).missing()).isEqualTo(1);
  }

  @Test
  void an_unacknowledged_event_present_is_counted_but_allowed() {
    EventLedger ledger = new EventLedger();
    TestEvent landed = event("landed");
    ledger.sent(List.of(landed));

    EventLedger.Reconciliation outcome = ledger.reconcile(List.of(read(landed)), false);

    assertThat(outcome.unacknowledgedPresent()).isEqualTo(1);
    assertThat(outcome.clean()).isTrue();
  }

  @Test
  void an_event_read_twice_is_duplicated_once() {
    EventLedger ledger = new EventLedger();
    TestEvent a = event("a");
    ledger.sent(List.of(a));
    ledger.acknowledged(a);

    EventLedger.Reconciliation outcome = ledger.reconcile(List.of(read(a), read(a), read(a)), true);

    assertThat(outcome.duplicated()).isEqualTo(2);
    assertThat(outcome.missing()).isZero();
    assertThat(outcome.clean()).isFalse();
  }

  @Test
  void a_value_other_than_the_one_sent_is_wrong() {
    EventLedger ledger = new EventLedger();
    TestEvent a = event("a");
    ledger.sent(List.of(a));
    ledger.acknowledged(a);
    ReadEvent changed =
        new ReadEvent("s", T.toString(), "a", "other".getBytes(StandardCharsets.UTF_8));
    ReadEvent noItem = new ReadEvent("s", T.toString(), "a", null);

    assertThat(ledger.reconcile(List.of(changed), true).wrongValue()).isEqualTo(1);
    assertThat(ledger.reconcile(List.of(noItem), true).wrongValue()).isEqualTo(1);
  }

  @Test
  void an_event_never_sent_or_in_another_series_is_unexpected() {
    EventLedger ledger = new EventLedger();
    TestEvent a = event("a");
    ledger.sent(List.of(a));
    ledger.acknowledged(a);
    List<ReadEvent> readBack = new ArrayList<>(List.of(read(a)));
    readBack.add(new ReadEvent("s", T.toString(), "stranger", null));
    readBack.add(new ReadEvent("other-series", T.toString(), "a", a.value()));

    EventLedger.Reconciliation outcome = ledger.reconcile(readBack, true);

    assertThat(outcome.unexpected()).isEqualTo(2);
    assertThat(outcome.duplicated()).isZero();
  }

  @Test
  void report_prints_the_counts_and_fails_on_a_missing_event() {
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    Results results = new Results(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));

    new EventLedger.Reconciliation(10, 8, 9, 1, 0, 0, 0, 2).report("phase", results);

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains(
            "phase.acknowledged=8\n",
            "phase.missing=1\n",
            "phase.unacknowledged_present=2\n",
            "phase.missing.check=fail");
    assertThat(results.passed()).isFalse();
  }
}
