package io.varve.opensearch;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How Varve reaches its index store: an OpenSearch cluster (or an Elasticsearch 7.10-compatible
 * endpoint), and how it feeds it.
 *
 * @param urls REST endpoints, {@code http://host:9200} or {@code https://host:9200}; empty = no
 *     index store (namespaces may still carry an INDEX_STORAGE entry; search answers
 *     FAILED_PRECONDITION)
 * @param username basic authentication user, when the cluster requires it
 * @param password basic authentication password
 * @param tls trust settings for {@code https} endpoints; the JDK's default trust when absent
 * @param requestTimeout timeout of one search, aggregation or bulk request
 * @param queueCapacity events waiting to be indexed, at most; beyond it new events are not queued
 *     (counted in {@code varve_index_dropped_events_total}) and need a backfill
 * @param queueBytes estimated heap of the events waiting to be indexed and of the bulk requests in
 *     flight, at most; beyond it new events are not queued, as above
 * @param bulkMaxEvents documents per bulk request, at most
 * @param bulkMaxBytes estimated heap of the events of one bulk request, at most (an event larger
 *     than this goes alone)
 * @param bulkConcurrency bulk requests in flight at once
 */
public record OpenSearchSettings(
    List<URI> urls,
    Optional<String> username,
    Optional<String> password,
    Optional<Tls> tls,
    Duration requestTimeout,
    int queueCapacity,
    long queueBytes,
    int bulkMaxEvents,
    long bulkMaxBytes,
    int bulkConcurrency) {

  /**
   * TLS to the cluster.
   *
   * @param truststore JKS or PKCS12 truststore holding the CA of the cluster's certificates
   * @param truststorePassword its password
   * @param hostnameValidation whether certificates must match the host names of {@code urls}
   */
  public record Tls(Path truststore, String truststorePassword, boolean hostnameValidation) {}

  /** No index store. */
  public static OpenSearchSettings none() {
    return new OpenSearchSettings(
        List.of(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Duration.ofSeconds(30),
        100_000,
        64L << 20,
        1000,
        8L << 20,
        4);
  }

  public boolean enabled() {
    return !urls.isEmpty();
  }

  public OpenSearchSettings withUrls(List<URI> other) {
    return new OpenSearchSettings(
        List.copyOf(other),
        username,
        password,
        tls,
        requestTimeout,
        queueCapacity,
        queueBytes,
        bulkMaxEvents,
        bulkMaxBytes,
        bulkConcurrency);
  }

  /** The settings as one line for the log, the password redacted. */
  public String describe() {
    return "opensearch.urls="
        + urls
        + " opensearch.username="
        + username.orElse("(none)")
        + " opensearch.password="
        + (password.isPresent() ? "(redacted)" : "(none)")
        + " opensearch.tls="
        + tls.map(t -> t.truststore().toString()).orElse("default")
        + " opensearch.requestTimeout="
        + requestTimeout
        + " opensearch.queueCapacity="
        + queueCapacity
        + " opensearch.queueBytes="
        + queueBytes
        + " opensearch.bulkMaxEvents="
        + bulkMaxEvents
        + " opensearch.bulkMaxBytes="
        + bulkMaxBytes
        + " opensearch.bulkConcurrency="
        + bulkConcurrency;
  }
}
