package io.varve.server.admission;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.server.metrics.LimitGauges;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Admission of API requests by the memory they will hold while in flight: two {@link ByteBudget}s,
 * one for writes and one for everything else, so that a flood of large writes never delays a small
 * read. A request beyond its budget is refused at once (RESOURCE_EXHAUSTED / HTTP 429); nothing
 * waits in a queue. Writes are also refused while the writes already admitted have waited longer
 * than {@code maxWriteQueueDelay} for their turn (to be decoded, or to Cassandra): the budgets
 * bound memory, this bounds an admitted write's latency when the cluster is slower than the
 * writers. Thread-safe.
 *
 * <p>Metrics: {@code varve_admission_inflight_bytes{budget}}, {@code
 * varve_admission_capacity_bytes{budget}} and {@code varve_admission_refused_total{budget,
 * transport, reason}}.
 */
public final class AdmissionControl {

  /** How a request reached the server; the body's share of the in-flight cost depends on it. */
  public enum Transport {
    /**
     * {@code POST /v1/<Rpc>}. A write's body of B bytes (item values in base64) is held at once as:
     * the aggregated body (B), its decoded String (B, Latin-1), the Jackson tree whose text nodes
     * hold the base64 values (about B), the protobuf message (0.75 B of ByteStrings), the decoded
     * events (0.75 B) and the Cassandra batches being encoded and sent (0.75 B): about 5.25 B,
     * rounded up to 6 because the String and the tree are garbage only after the parse and
     * collected later.
     */
    JSON(6, 3),
    /**
     * gRPC (and gRPC-Web). A body of B bytes is held as: the aggregated message (B), the protobuf
     * message (B), the decoded events (B) and the encoded Cassandra batches (B): 4 B.
     */
    GRPC(4, 3);

    private final int factor;
    private final int responseFactor;

    Transport(int factor, int responseFactor) {
      this.factor = factor;
      this.responseFactor = responseFactor;
    }

    /** Estimated heap held in flight by a body of {@code bodyBytes}. */
    public long cost(long bodyBytes) {
      return bodyBytes * factor;
    }

    /**
     * Estimated memory held by a response carrying {@code bytes} of keys and values: 3 times on
     * both transports. A value of V bytes is held as its stored bytes (V, or less when compressed:
     * then the value decompressed is another V) and, on gRPC, the serialized message (V); on
     * HTTP/JSON the response body, into which the value is written in base64 a piece at a time
     * ({@link io.varve.server.json.ProtoJson#printUtf8}): 4/3 V.
     */
    public long responseCost(long bytes) {
      return bytes * responseFactor;
    }
  }

  /**
   * What any request costs before its body counts: headers, context, a small response. Also what
   * keeps the number of tiny requests in flight bounded.
   */
  public static final long MIN_COST = 64 * 1024;

  /** The fire-and-forget write, queued in a namespace's buffer. */
  private static final String BUFFERED = "WriteEventRecords";

  /**
   * The RPCs that write: exactly those of the API table that need the WRITE permission (a test
   * keeps them so).
   */
  private static final Set<String> WRITES =
      Set.of("WriteEventRecordsSync", BUFFERED, "PutItems", "DeleteItems", "MutateItems");

  private final ByteBudget writes;
  private final ByteBudget reads;
  private final MeterRegistry registry;
  private final Duration maxWriteQueueDelay;
  private final Supplier<Duration> decodeDelay;
  private final Supplier<Duration> storeDelay;
  private final LongSupplier bufferRoom;

  /**
   * Admission with a fire-and-forget buffer that always has room (no {@link #bufferFull} refusal).
   *
   * @param decodeDelay how long the oldest write waiting for a decoding thread has waited
   * @param storeDelay how long the oldest write waiting for its turn to the store has waited
   */
  public AdmissionControl(
      AdmissionSettings settings,
      MeterRegistry registry,
      Supplier<Duration> decodeDelay,
      Supplier<Duration> storeDelay) {
    this(settings, registry, decodeDelay, storeDelay, () -> Long.MAX_VALUE);
  }

  /**
   * @param decodeDelay how long the oldest write waiting for a decoding thread has waited
   * @param storeDelay how long the oldest write waiting for its turn to the store has waited
   * @param bufferRoom the bytes the server's fire-and-forget buffer ({@code
   *     server.admission.bufferedWriteBytes}) can still take
   */
  public AdmissionControl(
      AdmissionSettings settings,
      MeterRegistry registry,
      Supplier<Duration> decodeDelay,
      Supplier<Duration> storeDelay,
      LongSupplier bufferRoom) {
    this.writes = new ByteBudget("write", settings.writeBytes());
    this.reads = new ByteBudget("read", settings.readBytes());
    this.registry = registry;
    this.maxWriteQueueDelay = settings.maxWriteQueueDelay();
    this.decodeDelay = decodeDelay;
    this.storeDelay = storeDelay;
    this.bufferRoom = bufferRoom;
    LimitGauges.register(registry, writes);
    LimitGauges.register(registry, reads);
  }

  /** The budget that pays for a call of {@code rpc} (the method name, e.g. ReadEventRecords). */
  public ByteBudget budgetOf(String rpc) {
    return isWrite(rpc) ? writes : reads;
  }

  /**
   * The RPC a request path calls: its last segment, for both transports ({@code
   * /<package>.<Service>/<RpcName>} for gRPC, {@code /v1/<RpcName>} for JSON).
   */
  public static String rpcOf(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Whether the RPC named {@code rpc} writes (and so takes the writes' budget and turns). */
  public static boolean isWrite(String rpc) {
    return WRITES.contains(rpc);
  }

  /**
   * The refusal of a write because the writes admitted earlier wait too long for their turn, or
   * empty when the request may go on to its budget. Every write waits for a decoding thread; a
   * durable write then waits for its turn to the store. A fire-and-forget write (WriteEventRecords)
   * does not: it is queued in its namespace's buffer, which exists to absorb the store's delays
   * (its own bound is the buffer's capacity), so the store's queue, which holds the buffer's own
   * slices while it drains, never refuses it.
   */
  public Optional<AdmissionRefusedException> backlog(String rpc, Transport transport) {
    if (!isWrite(rpc)) {
      return Optional.empty();
    }
    Duration decoding = decodeDelay.get();
    Duration store = BUFFERED.equals(rpc) ? Duration.ZERO : storeDelay.get();
    boolean decodingLonger = decoding.compareTo(store) >= 0;
    Duration delay = decodingLonger ? decoding : store;
    if (delay.compareTo(maxWriteQueueDelay) <= 0) {
      return Optional.empty();
    }
    count(writes, transport, "backlog");
    return Optional.of(
        new AdmissionRefusedException(
            "the server is at capacity: admitted writes have"
                + " waited "
                + delay.toMillis()
                + " ms for their turn "
                + (decodingLonger ? "to be decoded" : "to the store")
                + " (server.admission.maxWriteQueueDelay "
                + maxWriteQueueDelay.toMillis()
                + " ms); retry later"));
  }

  /**
   * The refusal of a fire-and-forget write (WriteEventRecords) that the server's buffer has no room
   * for, decided from its headers before its body is read, or empty when it may go on. It would be
   * refused once decoded anyway; refusing it first spares reading and decoding it while the buffer
   * is full, which under a flood is most of the time. Its events take at least as many bytes of the
   * buffer's estimate as a gRPC body declares ({@code declaredBytes}, 0 when unknown); a JSON
   * body's length says nothing sure (whitespace, base64), so it is only refused, as any request,
   * once less than {@link #MIN_COST} is free.
   */
  public Optional<AdmissionRefusedException> bufferFull(
      String rpc, Transport transport, long declaredBytes) {
    if (!BUFFERED.equals(rpc)) {
      return Optional.empty();
    }
    long room = bufferRoom.getAsLong();
    long needed = Math.max(MIN_COST, transport == Transport.GRPC ? declaredBytes : 0);
    if (room >= needed) {
      return Optional.empty();
    }
    count(writes, transport, "buffer_full");
    return Optional.of(
        new AdmissionRefusedException(
            "the server's write buffer is full ("
                + Math.max(0, room)
                + " bytes free of server.admission.bufferedWriteBytes, this request needs at least "
                + needed
                + "): retry later with backoff"));
  }

  /** Bytes held by requests in flight, in both budgets. */
  public long inFlightBytes() {
    return writes.inUse() + reads.inUse();
  }

  /**
   * Counts a refusal and returns the exception to answer with. {@code reason} is {@code declared}
   * (the Content-Length did not fit) or {@code streamed} (the body grew beyond the budget).
   */
  public AdmissionRefusedException refuse(ByteBudget budget, Transport transport, String reason) {
    count(budget, transport, reason);
    return new AdmissionRefusedException(
        "the server is at capacity: "
            + budget.kind()
            + " requests in flight hold "
            + budget.inUse()
            + " of "
            + budget.capacity()
            + " bytes (server.admission."
            + budget.kind()
            + "Bytes); retry later");
  }

  /**
   * Counts the refusal of a read whose response ({@code responseBytes} of keys and values, costing
   * {@code cost}) does not fit its budget, and returns the exception to answer with (reason {@code
   * response}). No chunk of a chunked value was fetched: its item row gives its size.
   */
  public AdmissionRefusedException refuseResponse(
      ByteBudget budget, Transport transport, long responseBytes, long cost) {
    count(budget, transport, "response");
    return new AdmissionRefusedException(
        "the server is at capacity: this read's response of "
            + responseBytes
            + " bytes needs about "
            + cost
            + " bytes of memory, and "
            + budget.kind()
            + " requests in flight hold "
            + budget.inUse()
            + " of "
            + budget.capacity()
            + " bytes (server.admission."
            + budget.kind()
            + "Bytes); retry later");
  }

  private void count(ByteBudget budget, Transport transport, String reason) {
    Counter.builder("varve.admission.refused")
        .description("requests refused at admission")
        .tag("budget", budget.kind())
        .tag("transport", transport.name().toLowerCase(java.util.Locale.ROOT))
        .tag("reason", reason)
        .register(registry)
        .increment();
  }
}
