package io.varve.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock running with real time from an offset that a test moves. */
public final class MovableClock extends Clock {

  private volatile Duration offset = Duration.ZERO;

  public void advance(Duration by) {
    offset = offset.plus(by);
  }

  /** From now on, the clock runs from {@code at} (in the past or the future). */
  public void moveTo(Instant at) {
    offset = Duration.between(Instant.now(), at);
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
