package io.varve.reshaper.cluster;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.ConnectionSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.SparkConf;

/**
 * One side of the job as the connector sees it: a serializable {@link CassandraConnector} whose
 * sessions are cached per JVM, built from the side's settings.
 */
public final class Cluster {
  private final ConnectionSettings settings;
  private final CassandraConnector connector;

  /**
   * @param common the job's {@code spark.cassandra.*} options, which this side's keys override
   */
  public Cluster(ConnectionSettings settings, Map<String, String> common) {
    this.settings = settings;
    SparkConf conf = new SparkConf(false);
    settings.connectorOptions(common).forEach(conf::set);
    this.connector = CassandraConnector.apply(conf);
  }

  /**
   * The {@code spark.cassandra.*} options of the whole job: those of its {@code spark} section,
   * below those given to Spark itself ({@code spark-submit --conf} or system properties).
   */
  public static Map<String, String> commonOptions(Map<String, String> sparkSection) {
    Map<String, String> common = new LinkedHashMap<>(sparkSection);
    for (var e : new SparkConf(true).getAll()) {
      if (e._1().startsWith("spark.cassandra.")) {
        common.put(e._1(), e._2());
      }
    }
    return common;
  }

  /** The connector, to hand to Spark tasks. */
  public CassandraConnector connector() {
    return connector;
  }

  /** The side's settings. */
  public ConnectionSettings settings() {
    return settings;
  }

  /** Opens a session, or explains which host could not be reached. */
  public CqlSession open() {
    try {
      return connector.openSession();
    } catch (Exception e) { // the connector throws IOException without declaring it
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      String where = settings.hosts() + ":" + settings.port();
      if (refusedCredentials(e)) {
        throw new ConfigException(
            settings.key("credentials"),
            where + " refused them (" + root.getMessage() + ")",
            "a user name and password the cluster accepts");
      }
      if (root instanceof java.io.FileNotFoundException
          || root instanceof java.nio.file.NoSuchFileException
          || root instanceof java.security.GeneralSecurityException) {
        throw new ConfigException(
            settings.key("sslOptions"),
            where + " (" + root + ")",
            "a trust store (and key store) that can be read with its password");
      }
      throw new UnreachableClusterException(
          settings.key("host")
              + ": "
              + where
              + " unreachable ("
              + root.getMessage()
              + "); check host, port and sslOptions, and that the cluster is up",
          e);
    }
  }

  /** Whether a node answered and refused the credentials: a job file to fix, not a cluster down. */
  private static boolean refusedCredentials(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof com.datastax.oss.driver.api.core.auth.AuthenticationException) {
        return true;
      }
      if (t instanceof com.datastax.oss.driver.api.core.AllNodesFailedException all
          && all.getAllErrors().values().stream()
              .flatMap(java.util.List::stream)
              .anyMatch(
                  x ->
                      x instanceof com.datastax.oss.driver.api.core.auth.AuthenticationException)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The side's table, or an error naming what is missing. A session is cached per JVM and learns of
   * schema changes a moment late, so a table created just before the job is looked up again after a
   * schema refresh before it counts as missing.
   */
  public TableMetadata table(CqlSession session) {
    CqlIdentifier ks = CqlIdentifier.fromCql(settings.keyspace());
    CqlIdentifier name = CqlIdentifier.fromCql(settings.table());
    Metadata metadata = session.getMetadata();
    if (metadata.getKeyspace(ks).flatMap(k -> k.getTable(name)).isEmpty()) {
      metadata = session.refreshSchema();
    }
    KeyspaceMetadata keyspace =
        metadata
            .getKeyspace(ks)
            .orElseThrow(
                () ->
                    new ConfigException(
                        settings.side() + ".keyspace",
                        settings.keyspace(),
                        "an existing keyspace"));
    return keyspace
        .getTable(name)
        .orElseThrow(
            () ->
                new ConfigException(
                    settings.side() + ".table",
                    settings.qualifiedTable() + " does not exist",
                    "an existing table; keyspace "
                        + settings.keyspace()
                        + " has: "
                        + keyspace.getTables().keySet().stream()
                            .map(id -> id.asCql(true))
                            .sorted()
                            .collect(Collectors.joining(", "))));
  }
}
