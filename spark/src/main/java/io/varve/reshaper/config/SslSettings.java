package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobOptions.CLIENT_AUTH;
import static io.varve.reshaper.config.JobOptions.KEY_STORE_PASSWORD;
import static io.varve.reshaper.config.JobOptions.KEY_STORE_PATH;
import static io.varve.reshaper.config.JobOptions.KEY_STORE_TYPE;
import static io.varve.reshaper.config.JobOptions.SSL_ENABLED;
import static io.varve.reshaper.config.JobOptions.TLS_ALGORITHMS;
import static io.varve.reshaper.config.JobOptions.TLS_PROTOCOL;
import static io.varve.reshaper.config.JobOptions.TRUST_STORE_PASSWORD;
import static io.varve.reshaper.config.JobOptions.TRUST_STORE_PATH;
import static io.varve.reshaper.config.JobOptions.TRUST_STORE_TYPE;
import static io.varve.reshaper.config.JobOptions.value;

import io.varve.options.OptionValues;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    List<String> enabledAlgorithms)
    implements Serializable {

  /** No TLS: a side that is not a database. */
  static final SslSettings NONE =
      new SslSettings(false, false, null, null, null, null, null, null, null, List.of());

  /** The {@code sslOptions} of {@code side}, the values of one side's section. */
  static SslSettings read(OptionValues side) {
    SslSettings ssl =
        new SslSettings(
            value(side, SSL_ENABLED),
            value(side, CLIENT_AUTH),
            value(side, TRUST_STORE_PATH),
            value(side, TRUST_STORE_PASSWORD),
            value(side, TRUST_STORE_TYPE),
            value(side, KEY_STORE_PATH),
            value(side, KEY_STORE_PASSWORD),
            value(side, KEY_STORE_TYPE),
            value(side, TLS_PROTOCOL),
            value(side, TLS_ALGORITHMS));
    if (ssl.clientAuthEnabled && ssl.keyStorePath == null) {
      throw new ConfigException(
          side.key(KEY_STORE_PATH), "missing", "a key store path when clientAuthEnabled is true");
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
