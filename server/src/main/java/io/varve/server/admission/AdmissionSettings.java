package io.varve.server.admission;

import java.time.Duration;

/**
 * Memory budgets of requests in flight, in bytes of estimated heap (see {@link AdmissionControl}
 * for how a request's cost is estimated).
 *
 * @param writeBytes budget of write requests (WriteEventRecordsSync, WriteEventRecords, PutItems,
 *     DeleteItems) while they are decoded and answered
 * @param readBytes budget of every other request (reads, search, control plane), apart so that
 *     writes at capacity never keep a small read waiting
 * @param maxWriteQueueDelay how long admitted writes may have waited for their turn to Cassandra
 *     before further writes are refused: the bound that keeps an admitted write's latency short
 *     when the cluster is slower than the writers, where the budgets only bound memory
 * @param bufferedWriteBytes what the fire-and-forget queues of all namespaces may hold together,
 *     with the batches being written from them (WriteEventRecords)
 * @param bufferedWriteRetry how long after it was queued a fire-and-forget event that Cassandra did
 *     not acknowledge is still written again, before it is dropped
 */
public record AdmissionSettings(
    long writeBytes,
    long readBytes,
    Duration maxWriteQueueDelay,
    long bufferedWriteBytes,
    Duration bufferedWriteRetry) {

  /** One second: a write admitted at the bound completes within about twice that. */
  public static final Duration DEFAULT_MAX_WRITE_QUEUE_DELAY = Duration.ofSeconds(1);

  /**
   * Thirty seconds: a Cassandra node restarting, or a coordinator's timeouts while it is busy,
   * costs no fire-and-forget event; an outage longer fills the buffer and refuses writers first.
   */
  public static final Duration DEFAULT_BUFFERED_WRITE_RETRY = Duration.ofSeconds(30);

  /** Smallest budget accepted: one request of the minimal cost, with room to spare. */
  public static final long MIN_BYTES = 1024 * 1024;

  /**
   * The default write budget: three eighths of the JVM's maximum heap. The cost estimate of {@link
   * AdmissionControl} already counts every copy of a request, so with the read budget (an eighth)
   * half the heap is left to the rest of the server and the collector's headroom (large bodies are
   * humongous objects for G1, which needs room to place them).
   */
  public static long autoWriteBytes() {
    return Math.max(MIN_BYTES, Runtime.getRuntime().maxMemory() / 8 * 3);
  }

  /** The default budget of other requests: an eighth of the JVM's maximum heap. */
  public static long autoReadBytes() {
    return Math.max(MIN_BYTES, Runtime.getRuntime().maxMemory() / 8);
  }

  /** The default bound of the fire-and-forget queues: an eighth of the JVM's maximum heap. */
  public static long autoBufferedWriteBytes() {
    return Math.max(MIN_BYTES, Runtime.getRuntime().maxMemory() / 8);
  }

  /** Every budget derived from the heap. */
  public static AdmissionSettings auto() {
    return new AdmissionSettings(
        autoWriteBytes(),
        autoReadBytes(),
        DEFAULT_MAX_WRITE_QUEUE_DELAY,
        autoBufferedWriteBytes(),
        DEFAULT_BUFFERED_WRITE_RETRY);
  }
}
