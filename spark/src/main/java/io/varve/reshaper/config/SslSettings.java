package io.varve.reshaper.config;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TLS to the database, the ScyllaDB migrator's {@code sslOptions} section. Each key maps to the
 * connector option named beside it.
 *
 * @param enabled {@code enabled}: {@code spark.cassandra.connection.ssl.enabled}, default false
 * @param clientAuthEnabled {@code clientAuthEnabled}: {@code ssl.clientAuth.enabled} (mutual TLS)
 * @param trustStorePath {@code trustStorePath}: {@code ssl.trustStore.path}
 * @param trustStorePassword {@code trustStorePassword}: {@code ssl.trustStore.password}
 * @param trustStoreType {@code trustStoreType}: {@code ssl.trustStore.type}, default JKS
 * @param keyStorePath {@code keyStorePath}: {@code ssl.keyStore.path}
 * @param keyStorePassword {@code keyStorePassword}: {@code ssl.keyStore.password}
 * @param keyStoreType {@code keyStoreType}: {@code ssl.keyStore.type}, default JKS
 * @param protocol {@code protocol}: {@code ssl.protocol}, default TLS
 * @param enabledAlgorithms {@code enabledAlgorithms}: {@code ssl.enabledAlgorithms}, a list
 */
public record SslSettings(
    boolean enabled,
    boolean clientAuthEnabled,
    String trustStorePath,
    String trustStorePassword,
    String trustStoreType,
    String keyStorePath,
    String keyStorePassword,
    String keyStoreType,
    String protocol,
    List<String> enabledAlgorithms) implements Serializable {

  static final SslSettings DISABLED =
      new SslSettings(false, false, null, null, null, null, null, null, null, List.of());

  static SslSettings read(YamlSection s) {
    if (s.raw().isEmpty()) {
      return DISABLED;
    }
    s.checkKeys(Set.of("enabled", "clientAuthEnabled", "trustStorePath", "trustStorePassword",
        "trustStoreType", "keyStorePath", "keyStorePassword", "keyStoreType", "protocol",
        "enabledAlgorithms"), Set.of());
    SslSettings ssl = new SslSettings(
        s.bool("enabled", false), s.bool("clientAuthEnabled", false),
        s.string("trustStorePath", null), s.string("trustStorePassword", null),
        s.string("trustStoreType", null), s.string("keyStorePath", null),
        s.string("keyStorePassword", null), s.string("keyStoreType", null),
        s.string("protocol", null),
        s.list("enabledAlgorithms").stream().map(String::valueOf).toList());
    if (ssl.clientAuthEnabled && ssl.keyStorePath == null) {
      throw new ConfigException(s.key("keyStorePath"), "missing",
          "a key store path when clientAuthEnabled is true");
    }
    return ssl;
  }

  Map<String, String> connectorOptions() {
    Map<String, String> o = new LinkedHashMap<>();
    if (!enabled) {
      return o;
    }
    String p = "spark.cassandra.connection.ssl.";
    o.put(p + "enabled", "true");
    put(o, p + "trustStore.path", trustStorePath);
    put(o, p + "trustStore.password", trustStorePassword);
    put(o, p + "trustStore.type", trustStoreType);
    put(o, p + "protocol", protocol);
    if (!enabledAlgorithms.isEmpty()) {
      o.put(p + "enabledAlgorithms", String.join(",", enabledAlgorithms));
    }
    if (clientAuthEnabled) {
      o.put(p + "clientAuth.enabled", "true");
      put(o, p + "keyStore.path", keyStorePath);
      put(o, p + "keyStore.password", keyStorePassword);
      put(o, p + "keyStore.type", keyStoreType);
    }
    return o;
  }

  private static void put(Map<String, String> o, String key, String value) {
    if (value != null) {
      o.put(key, value);
    }
  }
}
