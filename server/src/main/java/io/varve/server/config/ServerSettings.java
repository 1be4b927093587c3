package io.varve.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.opensearch.OpenSearchSettings;
import io.varve.server.auth.AuthSettings;
import io.varve.server.admission.AdmissionSettings;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Limits;
import io.varve.core.index.SearchLimits;
import io.varve.core.namespace.Names;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The server's configuration, read from a YAML file. Every key, its default and unit is listed in
 * {@code varve-reference.yaml} (bundled with the server and shown in docs/server-configuration.md).
 *
 * @param host address to bind; 127.0.0.1 unless set
 * @param port port of gRPC, HTTP/JSON, docs, health and metrics
 * @param tls server TLS, when configured
 * @param auth the accepted bearer tokens and their permissions; when it has none, no call needs a token
 * @param cassandra how to reach the cluster
 * @param readFanout initial partitions read in parallel per read
 * @param maxReadFanout upper bound of the adaptive fan-out
 * @param sliceMaintenanceInterval period of the slice creation / retention task
 * @param limits data plane limits
 * @param opensearch the index store of search and aggregate, and its indexing queue
 * @param search limits of search and aggregate requests
 * @param admission memory budgets of requests in flight ({@code server.admission})
 */
public record ServerSettings(
    String host,
    int port,
    Optional<Tls> tls,
    AuthSettings auth,
    CassandraSettings cassandra,
    int readFanout,
    int maxReadFanout,
    Duration sliceMaintenanceInterval,
    Limits limits,
    OpenSearchSettings opensearch,
    SearchLimits search,
    AdmissionSettings admission) {

  /** Server TLS from PEM files. */
  public record Tls(Path certificateChain, Path privateKey) {}

  public static ServerSettings defaults() {
    return parse(null);
  }

  public static ServerSettings load(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(new ObjectMapper(new YAMLFactory()).readTree(in));
    } catch (IOException e) {
      throw InvalidFieldException.of(file.toString(), "cannot be read: " + e.getMessage());
    }
  }

  static ServerSettings parse(JsonNode root) {
    ConfigNode config = new ConfigNode(root, "").only(Set.of("server", "cassandra", "opensearch", "timeseries"));
    ConfigNode server = config.section("server").only(Set.of("host", "port", "tls", "auth", "admission"));
    ConfigNode tlsNode = server.section("tls").only(Set.of("certificateChain", "privateKey"));
    Optional<Tls> tls = tlsNode.path("certificateChain").map(cert -> new Tls(cert, tlsNode.path("privateKey")
        .orElseThrow(() -> InvalidFieldException.of(tlsNode.key("privateKey"), "missing (expected: a PEM file)"))));
    if (tls.isEmpty() && tlsNode.has("privateKey")) {
      throw InvalidFieldException.of(tlsNode.key("certificateChain"), "missing (expected: a PEM certificate chain"
          + " to go with privateKey)");
    }
    ConfigNode ts = config.section("timeseries").only(Set.of("readFanout", "maxReadFanout", "sliceMaintenanceInterval",
        "limits", "search"));
    int fanout = ts.integer("readFanout", 8, 1, 256);
    return new ServerSettings(
        server.string("host", "127.0.0.1"),
        server.integer("port", 8080, 0, 65535),
        tls,
        new AuthConfig(System::getenv).parse(server.section("auth")),
        cassandra(config.section("cassandra")),
        fanout,
        ts.integer("maxReadFanout", Math.max(32, fanout), fanout, 1024),
        ts.duration("sliceMaintenanceInterval", Duration.ofSeconds(30)),
        limits(ts.section("limits")),
        opensearch(config.section("opensearch")),
        search(ts.section("search")),
        admission(server.section("admission")));
  }

  private static AdmissionSettings admission(ConfigNode a) {
    a.only(Set.of("writeBytes", "readBytes", "maxWriteQueueDelay"));
    return new AdmissionSettings(budget(a, "writeBytes", AdmissionSettings.autoWriteBytes()),
        budget(a, "readBytes", AdmissionSettings.autoReadBytes()),
        a.duration("maxWriteQueueDelay", AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY));
  }

  /** A budget in bytes, or {@code auto} for the default derived from the JVM's maximum heap. */
  private static long budget(ConfigNode a, String key, long auto) {
    String value = a.string(key, "auto").trim();
    if (value.equals("auto")) {
      return auto;
    }
    String expected = "auto or a number of bytes in " + AdmissionSettings.MIN_BYTES + "..1099511627776";
    if (!value.matches("\\d{1,13}")) {
      throw new InvalidFieldException(a.key(key), InvalidFieldException.shown(value), expected);
    }
    long bytes = Long.parseLong(value);
    if (bytes < AdmissionSettings.MIN_BYTES || bytes > 1L << 40) {
      throw new InvalidFieldException(a.key(key), bytes, expected);
    }
    return bytes;
  }

  private static SearchLimits search(ConfigNode s) {
    s.only(Set.of("maxInterval", "defaultPageSize", "maxPageSize", "maxQueryDepth", "maxQueryClauses",
        "maxTimeBuckets"));
    SearchLimits d = SearchLimits.DEFAULT;
    int maxPage = s.integer("maxPageSize", d.maxPageSize(), 1, 10_000);
    return new SearchLimits(s.duration("maxInterval", d.maxInterval()),
        s.integer("defaultPageSize", Math.min(d.defaultPageSize(), maxPage), 1, maxPage), maxPage,
        s.integer("maxQueryDepth", d.maxDepth(), 1, 32), s.integer("maxQueryClauses", d.maxClauses(), 1, 1024),
        s.integer("maxTimeBuckets", d.maxTimeBuckets(), 1, 100_000));
  }

  private static OpenSearchSettings opensearch(ConfigNode o) {
    o.only(Set.of("urls", "username", "password", "tls", "requestTimeout", "queueCapacity", "bulkMaxEvents",
        "bulkConcurrency"));
    OpenSearchSettings d = OpenSearchSettings.none();
    List<URI> urls = o.strings("urls", List.of()).stream().map(u -> url(o.key("urls"), u)).toList();
    ConfigNode tls = o.section("tls").only(Set.of("truststore", "truststorePassword", "hostnameValidation"));
    Optional<OpenSearchSettings.Tls> trust = tls.path("truststore").map(t -> new OpenSearchSettings.Tls(t,
        tls.string("truststorePassword", ""), tls.bool("hostnameValidation", true)));
    if (trust.isEmpty() && (tls.has("truststorePassword") || tls.has("hostnameValidation"))) {
      throw InvalidFieldException.of(tls.key("truststore"), "missing (expected: a truststore to go with the other"
          + " tls keys)");
    }
    Optional<String> username = o.optionalString("username");
    Optional<String> password = o.optionalString("password");
    if (username.isPresent() != password.isPresent()) {
      throw InvalidFieldException.of(o.key(username.isPresent() ? "password" : "username"),
          "missing (expected: username and password together, for basic authentication)");
    }
    return new OpenSearchSettings(urls, username, password, trust,
        o.duration("requestTimeout", d.requestTimeout()),
        o.integer("queueCapacity", d.queueCapacity(), 1, 10_000_000),
        o.integer("bulkMaxEvents", d.bulkMaxEvents(), 1, 100_000),
        o.integer("bulkConcurrency", d.bulkConcurrency(), 1, 256));
  }

  /** An index store endpoint, {@code http(s)://host:port}; errors name {@code key}. */
  public static URI url(String key, String value) {
    try {
      URI uri = new URI(value);
      if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) || uri.getHost() == null
          || uri.getPort() < 1) {
        throw new URISyntaxException(value, "not http(s)://host:port");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new InvalidFieldException(key, value, "http://host:port or https://host:port");
    }
  }

  private static CassandraSettings cassandra(ConfigNode c) {
    c.only(Set.of("contactPoints", "localDatacenter", "username", "password", "tls", "compression", "requestTimeout",
        "schemaTimeout", "metadataKeyspace", "replication", "maxInFlightWrites", "maxInFlightWriteBytes",
        "compressionThreshold"));
    CassandraSettings d = CassandraSettings.local(9042);
    List<InetSocketAddress> points = c.strings("contactPoints", List.of("127.0.0.1:9042")).stream()
        .map(p -> contactPoint(c.key("contactPoints"), p)).toList();
    ConfigNode tls = c.section("tls").only(Set.of("truststore", "truststorePassword", "keystore", "keystorePassword",
        "hostnameValidation"));
    Optional<CassandraSettings.Tls> cassandraTls = tls.path("truststore").map(trust -> new CassandraSettings.Tls(
        trust, tls.string("truststorePassword", ""), tls.path("keystore"), tls.optionalString("keystorePassword"),
        tls.bool("hostnameValidation", true)));
    if (cassandraTls.isEmpty() && (tls.has("keystore") || tls.has("keystorePassword") || tls.has("truststorePassword")
        || tls.has("hostnameValidation"))) {
      throw InvalidFieldException.of(tls.key("truststore"), "missing (expected: a truststore; TLS to Cassandra is"
          + " enabled by setting it)");
    }
    String compression = c.string("compression", "none");
    if (!compression.equals("none") && !compression.equals("lz4")) {
      throw new InvalidFieldException(c.key("compression"), compression, "none or lz4");
    }
    String metadataKeyspace = c.string("metadataKeyspace", d.metadataKeyspace());
    if (!Names.IDENTIFIER.matcher(metadataKeyspace).matches()) {
      throw new InvalidFieldException(c.key("metadataKeyspace"), metadataKeyspace, Names.EXPECTED);
    }
    Map<String, String> replication = c.stringMap("replication", d.replication());
    return new CassandraSettings(points, c.string("localDatacenter", d.localDatacenter()),
        c.optionalString("username"), c.optionalString("password"), cassandraTls, compression,
        c.duration("requestTimeout", d.requestTimeout()), c.duration("schemaTimeout", d.schemaTimeout()),
        metadataKeyspace, replication, c.integer("maxInFlightWrites", d.maxInFlightWrites(), 1, 65536),
        c.integer("maxInFlightWriteBytes", (int) d.maxInFlightWriteBytes(), 1024 * 1024, Integer.MAX_VALUE),
        c.integer("compressionThreshold", d.compressionThreshold(), 1, Integer.MAX_VALUE));
  }

  private static Limits limits(ConfigNode l) {
    Limits d = Limits.DEFAULT;
    l.only(Set.of("maxRequestBytes", "maxEventsPerBatch", "maxItemsPerEvent", "maxItemKeyBytes", "maxItemValueBytes",
        "maxEventBytes", "maxTimeSeriesIdBytes", "maxEventIdBytes", "maxPageSize", "defaultPageSize",
        "maxEventFilters", "futureLimit"));
    int maxPage = l.integer("maxPageSize", d.maxPageSize(), 1, 100_000);
    return new Limits(
        l.integer("maxRequestBytes", d.maxRequestBytes(), 1024, 256 * Limits.MIB),
        l.integer("maxEventsPerBatch", d.maxEventsPerBatch(), 1, 100_000),
        l.integer("maxItemsPerEvent", d.maxItemsPerEvent(), 1, 10_000),
        l.integer("maxItemKeyBytes", d.maxItemKeyBytes(), 1, 65_535),
        l.integer("maxItemValueBytes", d.maxItemValueBytes(), 1, 64 * Limits.MIB),
        l.integer("maxEventBytes", d.maxEventBytes(), 1, 64 * Limits.MIB),
        l.integer("maxTimeSeriesIdBytes", d.maxTimeSeriesIdBytes(), 1, 65_535),
        l.integer("maxEventIdBytes", d.maxEventIdBytes(), 1, 65_535),
        maxPage,
        l.integer("defaultPageSize", Math.min(d.defaultPageSize(), maxPage), 1, maxPage),
        l.integer("maxEventFilters", d.maxEventFilters(), 0, 1000),
        l.duration("futureLimit", d.futureLimit()));
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

  /** The settings as one line for the log, with secrets (passwords, tokens) redacted. */
  public String describe() {
    CassandraSettings c = cassandra;
    return "server.host=" + host + " server.port=" + port + " server.tls=" + tls.map(t -> t.certificateChain().toString())
        .orElse("off") + " " + auth.describe()
        + " cassandra.contactPoints=" + c.contactPoints() + " cassandra.localDatacenter=" + c.localDatacenter()
        + " cassandra.username=" + c.username().orElse("(none)") + " cassandra.password="
        + (c.password().isPresent() ? "(redacted)" : "(none)") + " cassandra.tls="
        + c.tls().map(t -> t.truststore().toString()).orElse("off") + " cassandra.compression=" + c.compression()
        + " cassandra.requestTimeout=" + c.requestTimeout() + " cassandra.schemaTimeout=" + c.schemaTimeout()
        + " cassandra.metadataKeyspace=" + c.metadataKeyspace() + " cassandra.replication=" + c.replication()
        + " cassandra.maxInFlightWrites=" + c.maxInFlightWrites() + " cassandra.maxInFlightWriteBytes="
        + c.maxInFlightWriteBytes() + " cassandra.compressionThreshold="
        + c.compressionThreshold() + " timeseries.readFanout=" + readFanout + " timeseries.maxReadFanout="
        + maxReadFanout + " timeseries.sliceMaintenanceInterval=" + sliceMaintenanceInterval + " timeseries.limits="
        + limits + " timeseries.search=" + search + " " + opensearch.describe() + " server.admission.writeBytes="
        + admission.writeBytes() + " server.admission.readBytes=" + admission.readBytes()
        + " server.admission.maxWriteQueueDelay=" + admission.maxWriteQueueDelay();
  }

  /** The same settings with other Cassandra contact points (used by the CLI and tests). */
  public ServerSettings withCassandra(CassandraSettings other) {
    return new ServerSettings(host, port, tls, auth, other, readFanout, maxReadFanout,
        sliceMaintenanceInterval, limits, opensearch, search, admission);
  }

  /** The same settings with other admission budgets (used by tests). */
  public ServerSettings withAdmission(AdmissionSettings other) {
    return new ServerSettings(host, port, tls, auth, cassandra, readFanout, maxReadFanout,
        sliceMaintenanceInterval, limits, opensearch, search, other);
  }

  public ServerSettings withPort(int newPort) {
    return new ServerSettings(host, newPort, tls, auth, cassandra, readFanout, maxReadFanout,
        sliceMaintenanceInterval, limits, opensearch, search, admission);
  }

  /** The same settings with other index store endpoints (used by the CLI and tests). */
  public ServerSettings withOpenSearchUrls(List<URI> urls) {
    return new ServerSettings(host, port, tls, auth, cassandra, readFanout, maxReadFanout,
        sliceMaintenanceInterval, limits, opensearch.withUrls(urls), search, admission);
  }
}
