package io.varve.bench.result;

/** Which latency a figure is about. */
public enum LatencyKind {
  /** From the time the operation was due (open loop, coordinated-omission corrected). */
  INTENDED,
  /** From the time the operation was actually sent (what a closed loop reports). */
  SERVICE
}
