package io.varve.server.config;

import io.varve.core.error.InvalidFieldException;
import io.varve.opensearch.OpenSearchSettings;
import io.varve.options.EffectiveConfig;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.Section;
import io.varve.options.Types;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The options of the {@code opensearch} section, and how they make {@link OpenSearchSettings}. */
public final class OpenSearchOptions {

  private static final OpenSearchSettings D = OpenSearchSettings.none();
  private static final Options.Builder OPTIONS = Options.builder();

  public static final Section OPENSEARCH =
      OPTIONS.section(
          "opensearch",
          "The index store behind SearchEventRecords and AggregateEventRecords (namespaces with an INDEX_STORAGE"
              + " entry): OpenSearch 1.x-3.x, or an Elasticsearch 7.10-compatible endpoint.");
  public static final Option<List<String>> URLS =
      OPTIONS
          .option("opensearch.urls", Types.strings("`http(s)://host:port`"))
          .defaultValue(List.of())
          .doc(
              "REST endpoints of the cluster, `http(s)://host:port`; requests are spread over them. None: no index"
                  + " store, and search answers `FAILED_PRECONDITION`. `varve up` passes its local node.");
  public static final Option<String> USERNAME =
      OPTIONS
          .option("opensearch.username", Types.string())
          .example("varve")
          .doc("Basic authentication user (with `password`).");
  public static final Option<String> PASSWORD =
      OPTIONS
          .option("opensearch.password", Types.string())
          .secret()
          .example("change-me")
          .doc("Its password (with `username`).");

  public static final Section TLS =
      OPTIONS.optionalSection(
          "opensearch.tls",
          "Trust for `https` endpoints; the JDK's default trust store when absent.");
  public static final Option<Path> TRUSTSTORE =
      OPTIONS
          .option("opensearch.tls.truststore", Types.path())
          .example("/etc/varve/opensearch/truststore.p12")
          .doc("JKS (`.jks`) or PKCS12 truststore with the CA of the cluster's certificates.");
  public static final Option<String> TRUSTSTORE_PASSWORD =
      OPTIONS
          .option("opensearch.tls.truststorePassword", Types.string())
          .defaultValue("")
          .secret()
          .example("change-me")
          .doc("The truststore's password.");
  public static final Option<Boolean> HOSTNAME_VALIDATION =
      OPTIONS
          .option("opensearch.tls.hostnameValidation", Types.bool())
          .defaultValue(true)
          .doc("Whether certificates must match the endpoint's host name.");

  public static final Option<Duration> REQUEST_TIMEOUT =
      OPTIONS
          .option("opensearch.requestTimeout", Types.duration())
          .defaultValue(D.requestTimeout())
          .doc("Timeout of one search, aggregation or bulk request.");
  public static final Option<Integer> QUEUE_CAPACITY =
      OPTIONS
          .option("opensearch.queueCapacity", Types.integer(1, 10_000_000))
          .defaultValue(D.queueCapacity())
          .doc(
              "Events waiting to be indexed, at most. When the index store is down or slower than the writes the"
                  + " queue fills; further events are not queued (`varve_index_dropped_events_total`) and are indexed by"
                  + " a backfill (`varve index backfill`). Writes never wait for, nor fail because of, the index store.");
  public static final Option<Integer> QUEUE_BYTES =
      OPTIONS
          .option("opensearch.queueBytes", Types.bytes(1024 * 1024, Integer.MAX_VALUE))
          .defaultValue((int) D.queueBytes())
          .doc(
              "Estimated heap that the events waiting to be indexed may hold, with the bulk requests being sent or"
                  + " retried, at most; beyond it, as beyond `queueCapacity`, further events are not queued and are"
                  + " indexed by a backfill. Bounds the queue whatever the size of the events: while the index store"
                  + " is down, `queueCapacity` events of 32 KiB would hold 3 GiB. Counted in the heap: keep it well"
                  + " under the server's `-Xmx` (`varve_index_queue_bytes` shows how full it runs).");
  public static final Option<Integer> BULK_MAX_EVENTS =
      OPTIONS
          .option("opensearch.bulkMaxEvents", Types.integer(1, 100_000))
          .defaultValue(D.bulkMaxEvents())
          .doc("Documents per bulk request, at most.");
  public static final Option<Integer> BULK_MAX_BYTES =
      OPTIONS
          .option("opensearch.bulkMaxBytes", Types.bytes(64 * 1024, 256 * 1024 * 1024))
          .defaultValue((int) D.bulkMaxBytes())
          .doc(
              "Estimated heap of the events of one bulk request, at most (an event larger than this goes alone):"
                  + " large events make smaller bulk requests, so that one stays well under the index store's"
                  + " request size limit (OpenSearch's `http.max_content_length`, 100 MB by default).");
  public static final Option<Integer> BULK_CONCURRENCY =
      OPTIONS
          .option("opensearch.bulkConcurrency", Types.integer(1, 256))
          .defaultValue(D.bulkConcurrency())
          .doc("Bulk requests in flight at once.");

  public static final Options ALL = OPTIONS.build();

  private OpenSearchOptions() {}

  static OpenSearchSettings settings(OptionValues v) {
    List<URI> urls = v.get(URLS).stream().map(u -> ServerSettings.url(v.key(URLS), u)).toList();
    if (!v.isSet(TRUSTSTORE) && (v.isSet(TRUSTSTORE_PASSWORD) || v.isSet(HOSTNAME_VALIDATION))) {
      throw InvalidFieldException.of(
          v.key(TRUSTSTORE), "missing (expected: a truststore to go with the other" + " tls keys)");
    }
    if (v.isSet(USERNAME) != v.isSet(PASSWORD)) {
      throw InvalidFieldException.of(
          v.key(v.isSet(USERNAME) ? PASSWORD : USERNAME),
          "missing (expected: username and password together, for basic authentication)");
    }
    return new OpenSearchSettings(
        urls,
        v.optional(USERNAME),
        v.optional(PASSWORD),
        v.optional(TRUSTSTORE)
            .map(
                t ->
                    new OpenSearchSettings.Tls(
                        t, v.get(TRUSTSTORE_PASSWORD), v.get(HOSTNAME_VALIDATION))),
        v.get(REQUEST_TIMEOUT),
        v.get(QUEUE_CAPACITY),
        v.get(QUEUE_BYTES),
        v.get(BULK_MAX_EVENTS),
        v.get(BULK_MAX_BYTES),
        v.get(BULK_CONCURRENCY));
  }

  static void effective(OpenSearchSettings o, EffectiveConfig config) {
    config
        .put(URLS, o.urls().stream().map(URI::toString).toList())
        .put(USERNAME, o.username())
        .put(PASSWORD, o.password())
        .put(TRUSTSTORE, o.tls().map(OpenSearchSettings.Tls::truststore))
        .put(TRUSTSTORE_PASSWORD, o.tls().map(OpenSearchSettings.Tls::truststorePassword))
        .put(HOSTNAME_VALIDATION, o.tls().map(OpenSearchSettings.Tls::hostnameValidation))
        .put(REQUEST_TIMEOUT, o.requestTimeout())
        .put(QUEUE_CAPACITY, o.queueCapacity())
        .put(QUEUE_BYTES, (int) o.queueBytes())
        .put(BULK_MAX_EVENTS, o.bulkMaxEvents())
        .put(BULK_MAX_BYTES, (int) o.bulkMaxBytes())
        .put(BULK_CONCURRENCY, o.bulkConcurrency());
  }
}
