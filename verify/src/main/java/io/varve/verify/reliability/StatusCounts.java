package io.varve.verify.reliability;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers of the overload phase by outcome: HTTP status classes and transport failures (a
 * connection refused, reset or closed without an answer, or no answer within the client's timeout).
 * Thread safe.
 */
final class StatusCounts {

  private final AtomicLong ok = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong serverErrors = new AtomicLong();
  private final AtomicLong timeouts = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final Map<Integer, AtomicLong> other = new TreeMap<>();
  private final Map<String, AtomicLong> causes = new TreeMap<>();

  void record(int status) {
    if (status == 200) {
      ok.incrementAndGet();
    } else if (status == 429) {
      refused.incrementAndGet();
    } else if (status >= 500) {
      serverErrors.incrementAndGet();
    } else {
      synchronized (other) {
        other.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
      }
    }
  }

  /**
   * A request without an answer: timed out on the client, or its connection refused, reset or
   * closed.
   */
  void recordTransportError(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    (cause instanceof java.net.http.HttpTimeoutException ? timeouts : dropped).incrementAndGet();
    String kind =
        cause.getClass().getSimpleName()
            + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    synchronized (causes) {
      causes.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }
  }

  /** What the transport failures were, as {@code count x cause; ...}, or {@code none}. */
  String transportCauses() {
    synchronized (causes) {
      if (causes.isEmpty()) {
        return "none";
      }
      StringBuilder text = new StringBuilder();
      causes.forEach(
          (cause, count) ->
              text.append(text.length() == 0 ? "" : "; ")
                  .append(count.get())
                  .append(" x ")
                  .append(cause));
      return text.toString();
    }
  }

  long ok() {
    return ok.get();
  }

  long refused() {
    return refused.get();
  }

  long serverErrors() {
    return serverErrors.get();
  }

  long timeouts() {
    return timeouts.get();
  }

  long dropped() {
    return dropped.get();
  }

  long transportErrors() {
    return timeouts.get() + dropped.get();
  }

  /** Statuses other than 200, 429 and 5xx, as {@code status:count,...}, or {@code none}. */
  String other() {
    synchronized (other) {
      if (other.isEmpty()) {
        return "none";
      }
      StringBuilder text = new StringBuilder();
      other.forEach(
          (status, count) ->
              text.append(text.length() == 0 ? "" : ",")
                  .append(status)
                  .append(':')
                  .append(count.get()));
      return text.toString();
    }
  }

  long otherCount() {
    synchronized (other) {
      return other.values().stream().mapToLong(AtomicLong::get).sum();
    }
  }
}
