package io.varve.client.internal;

/**
 * What a call may do again safely: this decides hedging and which failures are retried.
 *
 * <p>RESOURCE_EXHAUSTED is an admission refusal (nothing was done), so every kind retries it.
 * UNAVAILABLE may come after the server applied a call, so only idempotent kinds retry it.
 */
public enum CallKind {
  /** Idempotent and hedged after the delay: reads, and writes carrying event ids or a token. */
  HEDGED,
  /** Idempotent, retried, never hedged: the fire-and-forget write, control-plane reads. */
  IDEMPOTENT,
  /** Not idempotent: never hedged, retried only when refused at admission. */
  NOT_IDEMPOTENT;

  boolean retries(io.grpc.Status.Code code) {
    return code == io.grpc.Status.Code.RESOURCE_EXHAUSTED
        || (code == io.grpc.Status.Code.UNAVAILABLE && this != NOT_IDEMPOTENT);
  }
}
