package io.varve.reshaper.datasource;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.options.OptionValues;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.config.ConnectionSettings;
import io.varve.reshaper.config.ConnectorKeys;
import io.varve.reshaper.config.JobOptions;
import io.varve.reshaper.config.NamespaceSourceOptions;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * A data source's way to one namespace, made on the Spark driver from its options: the checked
 * option values, the cluster (its connector, serializable, for the tasks) and the namespace as the
 * control plane stored it.
 *
 * @param consistencyLevel {@code consistencyLevel} when given, else the namespace's own
 */
public record NamespaceAccess(
    OptionValues options,
    StoredNamespace namespace,
    ConnectionSettings connection,
    CassandraConnector connector,
    String consistencyLevel) {

  /**
   * Reads the options, reaches the cluster and loads the namespace of {@code service} (of either
   * service when null).
   *
   * @throws io.varve.reshaper.config.ConfigException naming the key of a bad option, or {@code
   *     namespace} when there is no such namespace of that service
   */
  public static NamespaceAccess open(Map<String, String> given, String service) {
    OptionValues options = NamespaceSourceOptions.read(given);
    String name = options.get(NamespaceSourceOptions.NAMESPACE);
    ConnectionSettings connection = ConnectionSettings.ofDataSource(options, name);
    Cluster cluster = new Cluster(connection, sessionOptions());
    StoredNamespace namespace;
    try (CqlSession session = cluster.open()) {
      namespace =
          StoredNamespace.load(
              session, options.get(NamespaceSourceOptions.METADATA_KEYSPACE), name, service);
    }
    NamespaceSourceOptions.requireOwn(options, namespace.format());
    if (!namespace.cluster().isEmpty()) {
      System.err.println(
          "varve data source: warning: namespace "
              + name
              + " names cluster '"
              + namespace.cluster()
              + "' (physicalStorage.cluster); this source reads its tables on the cluster it"
              + " connects to, the control plane's. When the server names that cluster in"
              + " cassandra.clusters, the namespace's data is there and not read here"
              + " (server-configuration.md, several clusters)");
    }
    String level =
        options.isSet(JobOptions.CONSISTENCY_LEVEL)
            ? connection.consistencyLevel()
            : namespace.consistencyLevel();
    return new NamespaceAccess(
        options, namespace, connection.withConsistencyLevel(level), cluster.connector(), level);
  }

  /**
   * The token ranges a scan cuts the ring into, one Spark partition each: {@code splitCount} when
   * given, else four per task slot of the Spark application and at least 16 per node. Fewer than
   * the reshaper's default: a part of a TimeSeries read queries its range of every slice, so the
   * queries are the parts times the slices, and each costs a round trip and a first page whatever
   * it holds (1,000,000 events over 15 slices on one node: 182,000 events/s with 256 parts, 353,000
   * with 16; docs/performance.md).
   */
  public int splitCount() {
    int given = connection.splitCount();
    if (given > 0) {
      return given;
    }
    int slots = SparkSession.active().sparkContext().defaultParallelism();
    try (CqlSession session = connector.openSession()) {
      return Math.max(4 * slots, 16 * session.getMetadata().getNodes().size());
    }
  }

  /** {@code tokenRange}, or the whole ring. */
  public NamespaceSourceOptions.TokenSpan tokenRange() {
    return options
        .optional(NamespaceSourceOptions.TOKEN_RANGE)
        .orElse(NamespaceSourceOptions.TokenSpan.RING);
  }

  /** Whether {@code tokenRange} narrows the read to a share of the ring. */
  public boolean shareOfRing() {
    return options.isSet(NamespaceSourceOptions.TOKEN_RANGE);
  }

  /** The share of the ring read, for a scan's description: {@code " in (start, end]"} or none. */
  public String shareShown() {
    NamespaceSourceOptions.TokenSpan span = tokenRange();
    return shareOfRing() ? " in (" + span.start() + ", " + span.end() + "]" : "";
  }

  /** {@code from}, when given. */
  public Optional<Instant> from() {
    return options.optional(NamespaceSourceOptions.FROM);
  }

  /** {@code to}, when given. */
  public Optional<Instant> to() {
    return options.optional(NamespaceSourceOptions.TO);
  }

  /**
   * The {@code spark.cassandra.*} options of the active Spark session and of the JVM's system
   * properties (timeouts, compression), below the data source's own keys. The connector's {@code
   * input.split.*} options have no effect: {@code splitCount} cuts the ring.
   */
  private static Map<String, String> sessionOptions() {
    Map<String, String> common = new LinkedHashMap<>();
    Optional<SparkSession> active =
        SparkSession.getActiveSession().isDefined()
            ? Optional.of(SparkSession.getActiveSession().get())
            : Optional.empty();
    active.ifPresent(
        s -> {
          for (Tuple2<String, String> e : s.sparkContext().getConf().getAll()) {
            if (e._1().startsWith("spark.cassandra.")) {
              common.put(e._1(), e._2());
            }
          }
        });
    common.putAll(Cluster.commonOptions(Map.of()));
    common.keySet().stream()
        .filter(k -> k.startsWith("spark.cassandra.input.split."))
        .forEach(
            k ->
                System.err.println(
                    "varve data source: warning: "
                        + k
                        + " has no effect here; the option splitCount cuts the ring"));
    common.keySet().stream()
        .filter(ConnectorKeys.TUNING::contains)
        .filter(k -> !k.startsWith("spark.cassandra.input.split."))
        .forEach(
            k ->
                System.err.println(
                    "varve data source: warning: "
                        + k
                        + " has no effect here; the data source reads and writes with its own"
                        + " code (its option fetchSize sets the page size)"));
    return common;
  }
}
