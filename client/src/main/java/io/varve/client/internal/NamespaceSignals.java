package io.varve.client.internal;

import io.varve.api.common.v1.EndpointSlo;
import io.varve.api.common.v1.HandshakeResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the client knows of a namespace from its last handshake: the latency objectives per RPC,
 * whether values may travel compressed, and when to ask again. {@link #unknown} stands for a
 * namespace whose server does not answer handshakes (or did not this time): no objectives, no
 * compression, asked again after the fallback interval.
 *
 * @param response the handshake's answer; empty when unknown
 * @param refreshInterval when to handshake again
 */
public record NamespaceSignals(Optional<HandshakeResponse> response, Duration refreshInterval) {

  private static final Duration MIN_REFRESH = Duration.ofSeconds(1);
  private static final Duration MAX_REFRESH = Duration.ofHours(1);

  /** The signals of a handshake's answer; its refresh interval kept within 1 s to 1 h. */
  public static NamespaceSignals of(HandshakeResponse response, Duration fallback) {
    Duration refresh =
        response.hasRefreshInterval()
            ? Duration.ofSeconds(
                response.getRefreshInterval().getSeconds(),
                response.getRefreshInterval().getNanos())
            : fallback;
    if (refresh.compareTo(MIN_REFRESH) < 0) {
      refresh = MIN_REFRESH;
    }
    if (refresh.compareTo(MAX_REFRESH) > 0) {
      refresh = MAX_REFRESH;
    }
    return new NamespaceSignals(Optional.of(response), refresh);
  }

  /** No handshake answer: defaults, asked again after {@code fallback}. */
  public static NamespaceSignals unknown(Duration fallback) {
    return new NamespaceSignals(Optional.empty(), fallback);
  }

  /** The objectives of {@code rpc} (e.g. "GetItems"), when the server gave them. */
  public Optional<Slo> slo(String rpc) {
    Map<String, EndpointSlo> slos = response.map(HandshakeResponse::getSlosMap).orElse(Map.of());
    EndpointSlo slo = slos.get(rpc);
    if (slo == null || !slo.hasLatency()) {
      return Optional.empty();
    }
    return Optional.of(
        new Slo(duration(slo.getLatency().getTarget()), duration(slo.getLatency().getMax())));
  }

  /** Whether the server takes and gives values compressed by the client. */
  public boolean compressedValues() {
    return response.map(r -> r.getCapabilities().getCompressedValues()).orElse(false);
  }

  /**
   * The largest part of a value the server takes in the chunked protocol, when it speaks it: values
   * larger than this are staged in parts of this size and committed.
   */
  public Optional<Integer> maxChunkBytes() {
    return response
        .filter(r -> r.getCapabilities().getChunkedProtocol())
        .map(r -> r.getKeyValueLimits().getMaxChunkBytes())
        .filter(bytes -> bytes > 0);
  }

  private static Optional<Duration> duration(com.google.protobuf.Duration d) {
    Duration value = Duration.ofSeconds(d.getSeconds(), d.getNanos());
    return value.isZero() || value.isNegative() ? Optional.empty() : Optional.of(value);
  }

  /**
   * An endpoint's latency objectives.
   *
   * @param target hedge around it
   * @param max time out around it
   */
  public record Slo(Optional<Duration> target, Optional<Duration> max) {}
}
