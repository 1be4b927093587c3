package io.varve.server.admission;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;

/**
 * Admission of API requests by the memory they will hold while in flight: two {@link ByteBudget}s,
 * one for writes and one for everything else, so that a flood of large writes never delays a
 * small read. A request beyond its budget is refused at once (RESOURCE_EXHAUSTED / HTTP 429);
 * nothing waits in a queue. Thread-safe.
 *
 * <p>Metrics: {@code varve_admission_inflight_bytes{budget}}, {@code
 * varve_admission_capacity_bytes{budget}} and {@code varve_admission_refused_total{budget,
 * transport, reason}}.
 */
public final class AdmissionControl {

  /** How a request reached the server; the body's share of the in-flight cost depends on it. */
  public enum Transport {
    /**
     * {@code POST /v1/<Rpc>}. A write's body of B bytes (item values in base64) is held at once
     * as: the aggregated body (B), its decoded String (B, Latin-1), the Jackson tree whose text
     * nodes hold the base64 values (about B), the protobuf message (0.75 B of ByteStrings), the
     * decoded events (0.75 B) and the Cassandra batches being encoded and sent (0.75 B): about
     * 5.25 B, rounded up to 6 because the String and the tree are garbage only after the parse
     * and collected later.
     */
    JSON(6),
    /**
     * gRPC (and gRPC-Web). A body of B bytes is held as: the aggregated message (B), the
     * protobuf message (B), the decoded events (B) and the encoded Cassandra batches (B): 4 B.
     */
    GRPC(4);

    private final int factor;

    Transport(int factor) {
      this.factor = factor;
    }

    /** Estimated heap held in flight by a body of {@code bodyBytes}. */
    public long cost(long bodyBytes) {
      return bodyBytes * factor;
    }
  }

  /**
   * What any request costs before its body counts: headers, context, a small response. Also what
   * keeps the number of tiny requests in flight bounded.
   */
  public static final long MIN_COST = 64 * 1024;

  private static final Set<String> WRITES = Set.of("WriteEventRecordsSync");

  private final ByteBudget writes;
  private final ByteBudget reads;
  private final MeterRegistry registry;

  public AdmissionControl(AdmissionSettings settings, MeterRegistry registry) {
    this.writes = new ByteBudget("write", settings.writeBytes());
    this.reads = new ByteBudget("read", settings.readBytes());
    this.registry = registry;
    for (ByteBudget budget : new ByteBudget[] {writes, reads}) {
      Gauge.builder("varve.admission.inflight.bytes", budget, ByteBudget::inFlight)
          .description("estimated heap held by admitted requests in flight").tag("budget", budget.name())
          .baseUnit("bytes").register(registry);
      Gauge.builder("varve.admission.capacity.bytes", budget, ByteBudget::capacity)
          .description("the budget of requests in flight").tag("budget", budget.name()).baseUnit("bytes")
          .register(registry);
    }
  }

  /** The budget that pays for a call of {@code rpc} (the method name, e.g. ReadEventRecords). */
  public ByteBudget budgetOf(String rpc) {
    return WRITES.contains(rpc) ? writes : reads;
  }

  /** Bytes held by requests in flight, in both budgets. */
  public long inFlightBytes() {
    return writes.inFlight() + reads.inFlight();
  }

  /**
   * Counts a refusal and returns the exception to answer with. {@code reason} is {@code declared}
   * (the Content-Length did not fit) or {@code streamed} (the body grew beyond the budget).
   */
  public AdmissionRefusedException refuse(ByteBudget budget, Transport transport, String reason) {
    Counter.builder("varve.admission.refused").description("requests refused at admission")
        .tag("budget", budget.name()).tag("transport", transport.name().toLowerCase(java.util.Locale.ROOT))
        .tag("reason", reason).register(registry).increment();
    return new AdmissionRefusedException("the server is at capacity: " + budget.name() + " requests in flight hold "
        + budget.inFlight() + " of " + budget.capacity() + " bytes (server.admission." + budget.name()
        + "Bytes); retry later");
  }
}
