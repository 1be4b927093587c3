package io.varve.cassandra.session;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.varve.cassandra.failure.CqlFailures;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Opens driver sessions from {@link CassandraSettings}; a cluster that cannot be reached fails the
 * stage with a {@link io.varve.core.error.StorageException}.
 */
public final class Sessions {

  private Sessions() {}

  public static CompletionStage<CqlSession> open(CassandraSettings settings) {
    return open(settings, List.of());
  }

  /**
   * How long the driver waits for more schema changes before refreshing its schema after one. A
   * schema change is answered only after that refresh; {@link SchemaChanges} then checks that the
   * nodes agree.
   */
  static final java.time.Duration SCHEMA_REFRESH_WINDOW = java.time.Duration.ofMillis(50);

  /**
   * As {@link #open(CassandraSettings)}, with trackers told of every request's outcome and latency
   * (the server records them as metrics).
   */
  public static CompletionStage<CqlSession> open(
      CassandraSettings settings, List<RequestTracker> trackers) {
    ProgrammaticDriverConfigLoaderBuilder config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, settings.requestTimeout())
            .withDuration(
                DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, settings.requestTimeout())
            .withDuration(
                DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, settings.schemaTimeout())
            .withDuration(
                DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, settings.schemaTimeout())
            .withString(DefaultDriverOption.PROTOCOL_COMPRESSION, settings.compression())
            .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 2)
            .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 2048)
            .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, true)
            // the driver answers a schema change once it has refreshed its schema, and waits a
            // debounce window (1 s by default) before refreshing: a namespace's tables, created one
            // after another, took 1.2 s each on one node; 0.24 s with 50 ms
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, SCHEMA_REFRESH_WINDOW)
            // the driver's default backoff grows to 60 s: after a node restart the server would
            // refuse
            // writes for up to a minute longer than needed; a retry every 10 s at most is cheap
            .withDuration(
                DefaultDriverOption.RECONNECTION_BASE_DELAY, java.time.Duration.ofSeconds(1))
            .withDuration(
                DefaultDriverOption.RECONNECTION_MAX_DELAY, java.time.Duration.ofSeconds(10));
    settings
        .tls()
        .ifPresent(
            tls -> {
              config
                  .withString(
                      DefaultDriverOption.SSL_ENGINE_FACTORY_CLASS, "DefaultSslEngineFactory")
                  .withString(DefaultDriverOption.SSL_TRUSTSTORE_PATH, tls.truststore().toString())
                  .withString(DefaultDriverOption.SSL_TRUSTSTORE_PASSWORD, tls.truststorePassword())
                  .withBoolean(
                      DefaultDriverOption.SSL_HOSTNAME_VALIDATION, tls.hostnameValidation());
              tls.keystore()
                  .ifPresent(
                      k -> config.withString(DefaultDriverOption.SSL_KEYSTORE_PATH, k.toString()));
              tls.keystorePassword()
                  .ifPresent(p -> config.withString(DefaultDriverOption.SSL_KEYSTORE_PASSWORD, p));
            });
    CqlSessionBuilder builder =
        CqlSession.builder()
            .withConfigLoader(config.build())
            .addContactPoints(settings.contactPoints())
            .withLocalDatacenter(settings.localDatacenter());
    trackers.forEach(builder::addRequestTracker);
    if (settings.username().isPresent()) {
      builder.withAuthCredentials(settings.username().get(), settings.password().orElse(""));
    }
    return CqlFailures.translated(builder.buildAsync());
  }
}
