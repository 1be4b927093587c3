package io.varve.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.cassandra.session.CassandraCluster;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Limits;
import io.varve.core.index.SearchLimits;
import io.varve.opensearch.OpenSearchSettings;
import io.varve.options.EffectiveConfig;
import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.auth.AuthSettings;
import io.varve.server.auth.TokenGrant;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The server's configuration, read from a YAML file. Every key is declared once, with its type,
 * default, range and doc line, in {@link ConfigFile#OPTIONS} ({@link ServerOptions}, {@link
 * CassandraOptions}, {@link OpenSearchOptions}, {@link TimeSeriesOptions}, {@link KvOptions}); the
 * parser refuses any other key, and the bundled {@code varve-reference.yaml} and the tables of
 * docs/server-configuration.md are generated from it ({@code ReferenceConfigTest}).
 *
 * @param host address to bind; 127.0.0.1 unless set
 * @param port port of gRPC, HTTP/JSON, docs, health and metrics
 * @param tls server TLS, when configured
 * @param auth the accepted bearer tokens and their permissions; when it has none, no call needs a
 *     token
 * @param cassandra how to reach the cluster
 * @param clusters the clusters other than the default one ({@code cassandra.clusters})
 * @param readFanout initial partitions read in parallel per read
 * @param maxReadFanout upper bound of the adaptive fan-out
 * @param sliceMaintenanceInterval period of the slice creation / retention task
 * @param compaction when slice tables past their accept limit switch compaction ({@code
 *     timeseries.compaction})
 * @param readCache the cache of ReadEventRecords pages of immutable ranges ({@code
 *     timeseries.readCache})
 * @param histogram partition histograms and the target of their recommendations ({@code
 *     timeseries.histogram})
 * @param oldTableGrace how long a re-partitioned slice's former table is kept ({@code
 *     timeseries.repartition.oldTableGrace})
 * @param limits data plane limits
 * @param opensearch the index store of search and aggregate, and its indexing queue
 * @param search limits of search and aggregate requests
 * @param admission memory budgets of requests in flight ({@code server.admission})
 * @param kv limits of the KeyValue service ({@code kv.limits})
 * @param kvChunks chunking of large KeyValue values ({@code kv.chunks})
 * @param shutdown how the server stops ({@code server.shutdown})
 */
public record ServerSettings(
    String host,
    int port,
    Optional<Tls> tls,
    AuthSettings auth,
    CassandraSettings cassandra,
    List<CassandraCluster> clusters,
    int readFanout,
    int maxReadFanout,
    Duration sliceMaintenanceInterval,
    CompactionSchedule compaction,
    ReadCacheSettings readCache,
    HistogramSettings histogram,
    Duration oldTableGrace,
    Limits limits,
    OpenSearchSettings opensearch,
    SearchLimits search,
    AdmissionSettings admission,
    io.varve.core.kv.KvLimits kv,
    io.varve.core.kv.KvChunking kvChunks,
    Shutdown shutdown) {

  /** Server TLS from PEM files. */
  public record Tls(Path certificateChain, Path privateKey) {}

  /**
   * How the server stops ({@code server.shutdown}).
   *
   * @param quietPeriod it keeps serving until no request arrived for this long
   * @param timeout the longest a stop waits, requests in flight included
   */
  public record Shutdown(Duration quietPeriod, Duration timeout) {

    /** The defaults of {@code server.shutdown}. */
    public static final Shutdown DEFAULT =
        new Shutdown(Duration.ofSeconds(2), Duration.ofSeconds(15));

    /**
     * No quiet period, requests in flight still let finish: for a server that no load balancer
     * sends requests to (the tests' servers).
     */
    public static final Shutdown AT_ONCE = new Shutdown(Duration.ZERO, DEFAULT.timeout());
  }

  /** A key given twice in one mapping is refused, not taken last-wins (an operator's slip). */
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder()
              .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
              .build());

  public static ServerSettings defaults() {
    return parse(null);
  }

  public static ServerSettings load(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(YAML.readTree(in));
    } catch (IOException e) {
      throw InvalidFieldException.of(file.toString(), "cannot be read: " + e.getMessage());
    }
  }

  static ServerSettings parse(JsonNode root) {
    return parse(root, System::getenv);
  }

  /**
   * Reads the file's tree, with {@code environment} for the tokens read from environment variables.
   */
  static ServerSettings parse(JsonNode root, UnaryOperator<String> environment) {
    OptionValues v = read(root);
    if (!v.isSet(ServerOptions.CERTIFICATE_CHAIN) && v.isSet(ServerOptions.PRIVATE_KEY)) {
      throw InvalidFieldException.of(
          v.key(ServerOptions.CERTIFICATE_CHAIN),
          "missing (expected: a PEM" + " certificate chain to go with privateKey)");
    }
    Optional<Tls> tls =
        v.optional(ServerOptions.CERTIFICATE_CHAIN)
            .map(
                cert ->
                    new Tls(
                        cert,
                        v.optional(ServerOptions.PRIVATE_KEY)
                            .orElseThrow(
                                () ->
                                    InvalidFieldException.of(
                                        v.key(ServerOptions.PRIVATE_KEY),
                                        "missing (expected: a PEM file)"))));
    CassandraSettings cassandra = CassandraOptions.settings(v);
    return new ServerSettings(
        v.get(ServerOptions.HOST),
        v.get(ServerOptions.PORT),
        tls,
        new AuthConfig(environment).parse(v),
        cassandra,
        CassandraOptions.clusters(v, cassandra),
        v.get(TimeSeriesOptions.READ_FANOUT),
        v.get(TimeSeriesOptions.MAX_READ_FANOUT),
        v.get(TimeSeriesOptions.SLICE_MAINTENANCE_INTERVAL),
        TimeSeriesOptions.compaction(v),
        TimeSeriesOptions.readCache(v, v.get(ServerOptions.BUFFERED_WRITE_RETRY)),
        TimeSeriesOptions.histogram(v),
        TimeSeriesOptions.oldTableGrace(v),
        TimeSeriesOptions.limits(v),
        OpenSearchOptions.settings(v),
        TimeSeriesOptions.search(v),
        new AdmissionSettings(
            v.get(ServerOptions.WRITE_BYTES).orElseGet(AdmissionSettings::autoWriteBytes),
            v.get(ServerOptions.READ_BYTES).orElseGet(AdmissionSettings::autoReadBytes),
            v.get(ServerOptions.MAX_WRITE_QUEUE_DELAY),
            v.get(ServerOptions.BUFFERED_WRITE_BYTES)
                .orElseGet(AdmissionSettings::autoBufferedWriteBytes),
            v.get(ServerOptions.BUFFERED_WRITE_RETRY)),
        KvOptions.limits(v),
        KvOptions.chunking(v),
        shutdown(v));
  }

  private static Shutdown shutdown(OptionValues v) {
    Duration quiet = v.get(ServerOptions.SHUTDOWN_QUIET_PERIOD);
    Duration timeout = v.get(ServerOptions.SHUTDOWN_TIMEOUT);
    if (timeout.compareTo(quiet) < 0) {
      throw new InvalidFieldException(
          v.key(ServerOptions.SHUTDOWN_TIMEOUT),
          ServerOptions.SHUTDOWN_TIMEOUT.type().format(timeout),
          "at least "
              + v.key(ServerOptions.SHUTDOWN_QUIET_PERIOD)
              + " ("
              + ServerOptions.SHUTDOWN_QUIET_PERIOD.type().format(quiet)
              + ")");
    }
    return new Shutdown(quiet, timeout);
  }

  /**
   * The options of a file's tree; a wrong key or value is an {@link InvalidFieldException} naming
   * it.
   */
  private static OptionValues read(JsonNode root) {
    Object tree =
        root == null || root.isMissingNode() || root.isNull()
            ? null
            : YAML.convertValue(root, Object.class);
    try {
      return OptionValues.fromTree(ConfigFile.OPTIONS, "", tree);
    } catch (OptionException e) {
      throw InvalidFieldException.of(e.key(), e.problem());
    }
  }

  /** An index store endpoint, {@code http(s)://host:port}; errors name {@code key}. */
  public static URI url(String key, String value) {
    try {
      URI uri = new URI(value);
      if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()))
          || uri.getHost() == null
          || uri.getPort() < 1) {
        throw new URISyntaxException(value, "not http(s)://host:port");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new InvalidFieldException(key, value, "http://host:port or https://host:port");
    }
  }

  /**
   * A contact point written {@code host:port} or {@code host} (port 9042); errors name {@code key}.
   */
  public static InetSocketAddress contactPoint(String key, String value) {
    int colon = value.lastIndexOf(':');
    try {
      String host = colon < 0 ? value : value.substring(0, colon);
      int port = colon < 0 ? 9042 : Integer.parseInt(value.substring(colon + 1));
      if (host.isEmpty() || port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
      return new InetSocketAddress(host, port);
    } catch (NumberFormatException e) {
      throw new InvalidFieldException(key, value, "host:port");
    }
  }

  /**
   * The effective settings as one line for the log: every option of {@link ConfigFile#OPTIONS} in
   * order, secrets (passwords, tokens) redacted.
   */
  public String describe() {
    EffectiveConfig config =
        new EffectiveConfig(ConfigFile.OPTIONS)
            .put(ServerOptions.HOST, host)
            .put(ServerOptions.PORT, port)
            .put(ServerOptions.CERTIFICATE_CHAIN, tls.map(Tls::certificateChain))
            .put(ServerOptions.PRIVATE_KEY, tls.map(Tls::privateKey))
            .put(
                ServerOptions.BEARER_TOKENS,
                auth.tokens().stream()
                    .filter(t -> t.name().startsWith("bearerTokens["))
                    .map(TokenGrant::name)
                    .toList())
            .describe(
                ServerOptions.TOKENS,
                auth.tokens().isEmpty()
                    ? "off"
                    : auth.tokens().stream()
                            .map(TokenGrant::toString)
                            .collect(Collectors.joining("; ", "[", "]"))
                        + " (secrets redacted)")
            .put(ServerOptions.AUTHENTICATE_METRICS, auth.authenticateMetrics())
            .put(ServerOptions.AUTHENTICATE_DOCS, auth.authenticateDocs())
            .put(ServerOptions.WRITE_BYTES, OptionalLong.of(admission.writeBytes()))
            .put(ServerOptions.READ_BYTES, OptionalLong.of(admission.readBytes()))
            .put(ServerOptions.MAX_WRITE_QUEUE_DELAY, admission.maxWriteQueueDelay())
            .put(
                ServerOptions.BUFFERED_WRITE_BYTES, OptionalLong.of(admission.bufferedWriteBytes()))
            .put(ServerOptions.BUFFERED_WRITE_RETRY, admission.bufferedWriteRetry())
            .put(ServerOptions.SHUTDOWN_QUIET_PERIOD, shutdown.quietPeriod())
            .put(ServerOptions.SHUTDOWN_TIMEOUT, shutdown.timeout());
    CassandraOptions.effective(cassandra, config);
    config.describe(
        CassandraOptions.CLUSTERS,
        clusters.isEmpty()
            ? "(none)"
            : clusters.stream()
                    .map(
                        c ->
                            c.name()
                                + " "
                                + c.settings().contactPoints().stream()
                                    .map(a -> a.getHostString() + ":" + a.getPort())
                                    .toList()
                                + " "
                                + c.settings().localDatacenter()
                                + (c.settings().username().isPresent() ? " credentials" : "")
                                + (c.settings().tls().isPresent() ? " tls" : ""))
                    .collect(Collectors.joining("; ", "[", "]"))
                + " (secrets redacted)");
    OpenSearchOptions.effective(opensearch, config);
    TimeSeriesOptions.effective(
        readFanout,
        maxReadFanout,
        sliceMaintenanceInterval,
        compaction,
        readCache,
        histogram,
        oldTableGrace,
        limits,
        search,
        config);
    KvOptions.effective(kv, config);
    KvOptions.effective(kvChunks, config);
    return config.line();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Settings like others but for what is set: the command line's overrides ({@code --port}, {@code
   * --cassandra}) and the tests' variants.
   */
  public static final class Builder {
    private String host;
    private int port;
    private Optional<Tls> tls;
    private AuthSettings auth;
    private CassandraSettings cassandra;
    private List<CassandraCluster> clusters;
    private int readFanout;
    private int maxReadFanout;
    private Duration sliceMaintenanceInterval;
    private CompactionSchedule compaction;
    private ReadCacheSettings readCache;
    private HistogramSettings histogram;
    private Duration oldTableGrace;
    private Limits limits;
    private OpenSearchSettings opensearch;
    private SearchLimits search;
    private AdmissionSettings admission;
    private io.varve.core.kv.KvLimits kv;
    private io.varve.core.kv.KvChunking kvChunks;
    private Shutdown shutdown;

    private Builder(ServerSettings s) {
      host = s.host;
      port = s.port;
      tls = s.tls;
      auth = s.auth;
      cassandra = s.cassandra;
      clusters = s.clusters;
      readFanout = s.readFanout;
      maxReadFanout = s.maxReadFanout;
      sliceMaintenanceInterval = s.sliceMaintenanceInterval;
      compaction = s.compaction;
      readCache = s.readCache;
      histogram = s.histogram;
      oldTableGrace = s.oldTableGrace;
      limits = s.limits;
      opensearch = s.opensearch;
      search = s.search;
      admission = s.admission;
      kv = s.kv;
      kvChunks = s.kvChunks;
      shutdown = s.shutdown;
    }

    public Builder host(String value) {
      host = value;
      return this;
    }

    public Builder port(int value) {
      port = value;
      return this;
    }

    public Builder tls(Optional<Tls> value) {
      tls = value;
      return this;
    }

    public Builder auth(AuthSettings value) {
      auth = value;
      return this;
    }

    public Builder cassandra(CassandraSettings value) {
      cassandra = value;
      return this;
    }

    public Builder limits(Limits value) {
      limits = value;
      return this;
    }

    public Builder opensearch(OpenSearchSettings value) {
      opensearch = value;
      return this;
    }

    public Builder search(SearchLimits value) {
      search = value;
      return this;
    }

    public Builder admission(AdmissionSettings value) {
      admission = value;
      return this;
    }

    public Builder kv(io.varve.core.kv.KvLimits value) {
      kv = value;
      return this;
    }

    public Builder kvChunks(io.varve.core.kv.KvChunking value) {
      kvChunks = value;
      return this;
    }

    public Builder readCache(ReadCacheSettings value) {
      readCache = value;
      return this;
    }

    public Builder histogram(HistogramSettings value) {
      histogram = value;
      return this;
    }

    public Builder compaction(CompactionSchedule value) {
      compaction = value;
      return this;
    }

    public Builder shutdown(Shutdown value) {
      shutdown = value;
      return this;
    }

    /** The index store's endpoints, its other settings kept. */
    public Builder openSearchUrls(List<URI> urls) {
      opensearch = opensearch.withUrls(urls);
      return this;
    }

    public ServerSettings build() {
      return new ServerSettings(
          host,
          port,
          tls,
          auth,
          cassandra,
          clusters,
          readFanout,
          maxReadFanout,
          sliceMaintenanceInterval,
          compaction,
          readCache,
          histogram,
          oldTableGrace,
          limits,
          opensearch,
          search,
          admission,
          kv,
          kvChunks,
          shutdown);
    }
  }
}
