package io.varve.server.handshake;

import io.varve.api.common.v1.ClientSignals;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.common.v1.KeyValueLimits;
import io.varve.api.common.v1.ServerCapabilities;
import io.varve.api.common.v1.TimeSeriesLimits;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Limits;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.namespace.Names;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.text.Characters;
import io.varve.server.config.NamespaceService;
import io.varve.server.config.SloConfig;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Answers the handshake of a namespace of either service: its objectives per endpoint, the request
 * limits and what this server does, from the registry's cached namespace (no metadata read on a
 * warm server). Both services' Handshake RPCs answer here, so a client asks whichever service it
 * uses about any namespace and reads the service from the answer.
 */
public final class Handshakes {

  static final int MAX_SIGNAL_CHARS = 128;
  static final int MAX_CAPABILITIES = 32;
  static final int MAX_CAPABILITY_CHARS = 64;

  private final NamespaceRegistry registry;
  private final KvLimits kvLimits;
  private final KvChunking chunking;
  private final Limits limits;
  private final Duration refreshInterval;
  private final boolean cacheOn;

  /**
   * @param kvLimits the bounds of KeyValue requests
   * @param chunking how KeyValue values are chunked
   * @param limits the bounds of TimeSeries requests
   * @param refreshInterval how soon a client should ask again: the interval at which other servers
   *     reload namespaces
   */
  public Handshakes(
      NamespaceRegistry registry,
      KvLimits kvLimits,
      KvChunking chunking,
      Limits limits,
      Duration refreshInterval) {
    this.registry = registry;
    this.kvLimits = kvLimits;
    this.chunking = chunking;
    this.limits = limits;
    this.refreshInterval = refreshInterval;
    this.cacheOn = kvLimits.maxCacheBytes() > 0;
  }

  /** The handshake of {@code r}'s namespace; NOT_FOUND when there is none. */
  public CompletionStage<HandshakeResponse> answer(HandshakeRequest r) {
    Names.namespace("namespace", r.getNamespace());
    check(r.getClient());
    return registry
        .getAny(r.getNamespace())
        .thenApply(
            entry ->
                entry.keyValue().isPresent()
                    ? keyValue(entry, entry.keyValue().get())
                    : timeSeries(entry, entry.settings()));
  }

  private HandshakeResponse.Builder common(NamespaceEntry entry, NamespaceService service) {
    return HandshakeResponse.newBuilder()
        .setNamespace(entry.record().namespace())
        .setService(service.name())
        .setNamespaceVersion(entry.record().version())
        .setRefreshInterval(protobuf(refreshInterval));
  }

  private HandshakeResponse timeSeries(NamespaceEntry entry, NamespaceSettings ns) {
    return common(entry, NamespaceService.TIME_SERIES)
        .putAllSlos(SloConfig.write(ns.slos()))
        .setCapabilities(
            ServerCapabilities.newBuilder()
                .setPartialReturns(true)
                .setMaxItemBytes(limits.maxItemValueBytes()))
        .setTimeSeriesLimits(
            TimeSeriesLimits.newBuilder()
                .setMaxEventsPerRequest(limits.maxEventsPerBatch())
                .setMaxRequestBytes(limits.maxRequestBytes())
                .setMaxItemsPerEvent(limits.maxItemsPerEvent())
                .setMaxItemKeyBytes(limits.maxItemKeyBytes())
                .setMaxItemValueBytes(limits.maxItemValueBytes())
                .setMaxEventBytes(limits.maxEventBytes())
                .setMaxTimeSeriesIdBytes(limits.maxTimeSeriesIdBytes())
                .setMaxEventIdBytes(limits.maxEventIdBytes())
                .setDefaultPageSize(limits.defaultPageSize())
                .setMaxPageSize(limits.maxPageSize())
                .setMaxEventFilters(limits.maxEventFilters())
                .setFutureLimit(protobuf(limits.futureLimit()))
                .setAcceptLimit(protobuf(ns.acceptLimit())))
        .build();
  }

  private HandshakeResponse keyValue(NamespaceEntry entry, KvNamespace ns) {
    ServerCapabilities.Builder capabilities =
        ServerCapabilities.newBuilder()
            .setPartialReturns(true)
            // values above the threshold are stored in chunks, transparently to the client
            .setChunking(true)
            // GetItems' compression signal and PutItems' declared zstd values
            .setCompressedValues(true)
            .setMaxItemBytes(chunking.maxValueBytes())
            // parts staged and committed by the client, and returned in parts to one that asks
            .setChunkedProtocol(true)
            .setPointReadCache(cacheOn && ns.cacheTtl().isPresent());
    if (capabilities.getPointReadCache()) {
      capabilities.setCacheTtl(protobuf(ns.cacheTtl().orElseThrow()));
    }
    return common(entry, NamespaceService.KEY_VALUE)
        .putAllSlos(SloConfig.write(ns.slos()))
        .setCapabilities(capabilities)
        .setKeyValueLimits(
            KeyValueLimits.newBuilder()
                .setMaxIdBytes(kvLimits.maxIdBytes())
                .setMaxKeyBytes(kvLimits.maxKeyBytes())
                .setMaxValueBytes(kvLimits.maxValueBytes())
                .setMaxItemsPerRequest(kvLimits.maxItemsPerRequest())
                .setMaxRequestBytes(kvLimits.maxRequestBytes())
                .setMaxMatchKeys(kvLimits.maxMatchKeys())
                .setDefaultPageSizeBytes(kvLimits.defaultPageSizeBytes())
                .setMaxPageSizeBytes(kvLimits.maxPageSizeBytes())
                .setMaxTokenAge(protobuf(kvLimits.maxTokenAge()))
                .setMaxTokenLead(protobuf(kvLimits.maxTokenLead()))
                .setMaxChunkBytes(chunking.chunkSize())
                .setMaxChunks(chunking.maxParts()))
        .build();
  }

  private static void check(ClientSignals client) {
    text("client.name", client.getName(), 0, MAX_SIGNAL_CHARS);
    text("client.version", client.getVersion(), 0, MAX_SIGNAL_CHARS);
    if (client.getCapabilitiesCount() > MAX_CAPABILITIES) {
      throw new InvalidFieldException(
          "client.capabilities",
          InvalidFieldException.shown(client.getCapabilitiesCount() + " names"),
          "at most " + MAX_CAPABILITIES);
    }
    for (int i = 0; i < client.getCapabilitiesCount(); i++) {
      text("client.capabilities[" + i + "]", client.getCapabilities(i), 1, MAX_CAPABILITY_CHARS);
    }
  }

  private static void text(String field, String value, int min, int max) {
    int characters = Characters.count(value);
    if (characters < min || characters > max) {
      throw new InvalidFieldException(
          field, value, min + ".." + max + " characters (Unicode code points)");
    }
  }

  private static com.google.protobuf.Duration protobuf(Duration d) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(d.getSeconds())
        .setNanos(d.getNano())
        .build();
  }
}
