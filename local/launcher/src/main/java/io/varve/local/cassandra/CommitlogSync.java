package io.varve.local.cassandra;

import java.time.Duration;
import java.util.Objects;

/**
 * When the local node fsyncs its commit log, and so which acknowledged writes survive a crash.
 *
 * <ul>
 *   <li>{@link #batch()} (the default): every write is fsynced before it is acknowledged, so an
 *       acknowledged write survives a SIGKILL of the node or a power cut.
 *   <li>{@link #group(Duration)}: writes wait up to the window and are fsynced together before they
 *       are acknowledged; same guarantee, more throughput under concurrent load, each write slower
 *       by up to the window.
 * </ul>
 *
 * <p>Cassandra's own default, {@code periodic}, is deliberately not offered: it acknowledges writes
 * before they are synced and loses them when the node is killed.
 *
 * <p>Immutable and thread-safe.
 */
public final class CommitlogSync {

  private static final CommitlogSync BATCH = new CommitlogSync(null);

  private final Duration groupWindow;

  private CommitlogSync(Duration groupWindow) {
    this.groupWindow = groupWindow;
  }

  /** Fsync each write before acknowledging it (Cassandra's {@code commitlog_sync: batch}). */
  public static CommitlogSync batch() {
    return BATCH;
  }

  /**
   * Fsync writes in groups, at most {@code window} apart, before acknowledging them (Cassandra's
   * {@code commitlog_sync: group}).
   *
   * @param window whole milliseconds, 1 ms to 1 s
   * @throws IllegalArgumentException if the window is out of range or not whole milliseconds
   */
  public static CommitlogSync group(Duration window) {
    Objects.requireNonNull(window, "window");
    long millis = window.toMillis();
    if (millis < 1 || millis > 1000 || !Duration.ofMillis(millis).equals(window)) {
      throw new IllegalArgumentException(
          "commitlogSync.groupWindow: "
              + (window.toNanos() % 1_000_000 == 0 ? millis + "ms" : window)
              + " (expected: whole milliseconds, 1ms..1000ms)");
    }
    return new CommitlogSync(window);
  }

  /**
   * Reads {@code batch} or {@code group:<millis>ms}, for example {@code group:5ms}.
   *
   * @throws IllegalArgumentException if the text is neither
   */
  public static CommitlogSync parse(String text) {
    if (text.equals("batch")) {
      return batch();
    }
    if (text.startsWith("group:") && text.endsWith("ms")) {
      String millis = text.substring("group:".length(), text.length() - "ms".length());
      long window = millis.matches("\\d{1,4}") ? Long.parseLong(millis) : 0;
      if (window >= 1 && window <= 1000) {
        return group(Duration.ofMillis(window));
      }
    }
    throw new IllegalArgumentException(
        "commitlogSync: " + text + " (expected: batch or group:<1..1000>ms, e.g. group:5ms)");
  }

  /** Whether this is the {@code group} mode; otherwise it is {@code batch}. */
  public boolean isGroup() {
    return groupWindow != null;
  }

  /** The group window; {@link Duration#ZERO} in batch mode. */
  public Duration groupWindow() {
    return isGroup() ? groupWindow : Duration.ZERO;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CommitlogSync that && Objects.equals(groupWindow, that.groupWindow);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(groupWindow);
  }

  /** {@code batch} or {@code group:5ms}, the form {@link LocalCassandraMain} accepts. */
  @Override
  public String toString() {
    return isGroup() ? "group:" + groupWindow.toMillis() + "ms" : "batch";
  }
}
