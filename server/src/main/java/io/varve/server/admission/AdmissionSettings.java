package io.varve.server.admission;

/**
 * Memory budgets of requests in flight, in bytes of estimated heap (see {@link AdmissionControl}
 * for how a request's cost is estimated).
 *
 * @param writeBytes budget of write requests (WriteEventRecordsSync)
 * @param readBytes budget of every other request (reads, search, control plane), apart so that
 *     writes at capacity never keep a small read waiting
 */
public record AdmissionSettings(long writeBytes, long readBytes) {

  /** Smallest budget accepted: one request of the minimal cost, with room to spare. */
  public static final long MIN_BYTES = 1024 * 1024;

  /**
   * The default write budget: three eighths of the JVM's maximum heap. The cost estimate of
   * {@link AdmissionControl} already counts every copy of a request, so with the read budget
   * (an eighth) half the heap is left to the rest of the server and the collector's headroom
   * (large bodies are humongous objects for G1, which needs room to place them).
   */
  public static long autoWriteBytes() {
    return Math.max(MIN_BYTES, Runtime.getRuntime().maxMemory() / 8 * 3);
  }

  /** The default budget of other requests: an eighth of the JVM's maximum heap. */
  public static long autoReadBytes() {
    return Math.max(MIN_BYTES, Runtime.getRuntime().maxMemory() / 8);
  }

  /** Both budgets derived from the heap. */
  public static AdmissionSettings auto() {
    return new AdmissionSettings(autoWriteBytes(), autoReadBytes());
  }
}
