package io.varve.server.kv;

import io.varve.api.common.v1.ClientSignals;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.common.v1.KeyValueLimits;
import io.varve.api.common.v1.ServerCapabilities;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.namespace.Names;
import io.varve.server.config.NamespaceService;
import io.varve.server.config.SloConfig;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * Answers the handshake of a KeyValue namespace: its objectives per endpoint, the request limits
 * and what this server does, from the registry's cached namespace (no metadata read on a warm
 * server).
 */
final class Handshakes {

  static final int MAX_SIGNAL_CHARS = 128;
  static final int MAX_CAPABILITIES = 32;
  static final int MAX_CAPABILITY_CHARS = 64;

  private final NamespaceRegistry registry;
  private final KvLimits limits;
  private final Duration refreshInterval;
  private final boolean cacheOn;

  private final KvChunking chunking;

  Handshakes(
      NamespaceRegistry registry, KvLimits limits, KvChunking chunking, Duration refreshInterval) {
    this.chunking = chunking;
    this.registry = registry;
    this.limits = limits;
    this.refreshInterval = refreshInterval;
    this.cacheOn = limits.maxCacheBytes() > 0;
  }

  CompletionStage<HandshakeResponse> answer(HandshakeRequest r) {
    Names.namespace("namespace", r.getNamespace());
    check(r.getClient());
    return registry
        .get(r.getNamespace(), NamespaceService.KEY_VALUE)
        .thenApply(entry -> response(entry, entry.keyValue().orElseThrow()));
  }

  private HandshakeResponse response(NamespaceEntry entry, KvNamespace ns) {
    ServerCapabilities.Builder capabilities =
        ServerCapabilities.newBuilder()
            .setPartialReturns(true)
            // values above the threshold are stored in chunks, transparently to the client
            .setChunking(true)
            // GetItems' compression signal and PutItems' declared zstd values
            .setCompressedValues(true)
            .setMaxItemBytes(chunking.maxValueBytes())
            .setPointReadCache(cacheOn && ns.cacheTtl().isPresent());
    if (capabilities.getPointReadCache()) {
      capabilities.setCacheTtl(protobuf(ns.cacheTtl().orElseThrow()));
    }
    return HandshakeResponse.newBuilder()
        .setNamespace(ns.namespace())
        .setService(NamespaceService.KEY_VALUE.name())
        .setNamespaceVersion(entry.record().version())
        .putAllSlos(SloConfig.write(ns.slos()))
        .setRefreshInterval(protobuf(refreshInterval))
        .setCapabilities(capabilities)
        .setKeyValueLimits(
            KeyValueLimits.newBuilder()
                .setMaxIdBytes(limits.maxIdBytes())
                .setMaxKeyBytes(limits.maxKeyBytes())
                .setMaxValueBytes(limits.maxValueBytes())
                .setMaxItemsPerRequest(limits.maxItemsPerRequest())
                .setMaxRequestBytes(limits.maxRequestBytes())
                .setMaxMatchKeys(limits.maxMatchKeys())
                .setDefaultPageSizeBytes(limits.defaultPageSizeBytes())
                .setMaxPageSizeBytes(limits.maxPageSizeBytes())
                .setMaxTokenAge(protobuf(limits.maxTokenAge()))
                .setMaxTokenLead(protobuf(limits.maxTokenLead())))
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
    if (value.length() < min || value.length() > max) {
      throw new InvalidFieldException(field, value, min + ".." + max + " characters");
    }
  }

  private static com.google.protobuf.Duration protobuf(Duration d) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(d.getSeconds())
        .setNanos(d.getNano())
        .build();
  }
}
