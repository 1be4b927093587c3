package io.varve.server.transport;

import io.varve.server.config.ServerSettings;

/**
 * Request size limits of the KeyValue service, which carries values up to {@code
 * kv.chunks.maxValueBytes} (64 MiB by default): larger than the limit of every other request
 * ({@code timeseries.limits.maxRequestBytes}, 32 MiB). Only KeyValue requests get the larger limit;
 * it stays bounded, and admission control still counts every body's bytes (a body costing more than
 * the whole write budget never runs beside another: {@link io.varve.server.admission.ByteBudget}).
 *
 * @param grpcBytes the largest KeyValue gRPC message: the chunked values, the inline keys and
 *     values (4 MiB, {@code KvLimits.maxRequestBytes}, fixed) and 1 MiB for keys of chunked values
 *     and framing
 * @param jsonBytes the largest KeyValue JSON body: the same bytes in base64 (4/3), and 2 MiB of
 *     JSON syntax
 */
record LargeValueLimits(int grpcBytes, int jsonBytes) {

  private static final int MIB = 1024 * 1024;

  /** What sets {@link #grpcBytes}, as a refusal names it. */
  static final String GRPC_LIMIT =
      "a KeyValue message's limit: kv.chunks.maxValueBytes plus 4 MiB of keys and inline values"
          + " plus 1 MiB, see docs/key-value.md#limits";

  static LargeValueLimits of(ServerSettings settings) {
    long bytes = (long) settings.kvChunks().maxValueBytes() + settings.kv().maxRequestBytes() + MIB;
    long json = bytes / 3 * 4 + 4 + 2L * MIB;
    int other = settings.limits().maxRequestBytes();
    return new LargeValueLimits(
        (int) Math.min(Integer.MAX_VALUE - 2L * MIB, Math.max(other, bytes)),
        (int) Math.min(Integer.MAX_VALUE - 2L * MIB, Math.max(other, json)));
  }

  /** The largest of the two, for the JSON codec (its strings are bounded by the body anyway). */
  int largest() {
    return Math.max(grpcBytes, jsonBytes);
  }
}
