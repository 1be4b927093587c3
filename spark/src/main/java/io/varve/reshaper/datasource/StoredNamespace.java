package io.varve.reshaper.datasource;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.core.namespace.Consistency;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.reshaper.config.ConfigException;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A namespace as the control plane stored it, read from the metadata keyspace by a Spark driver:
 * the {@code namespaces} row's configuration document (the JSON of its effective {@code
 * persistence_configuration}, defaults filled in by the server that stored it) and its {@code
 * time_slices} rows. Only what a data source needs is taken: the service, the keyspace, the
 * consistency, the accept limit and the slices with the partition settings each was created with.
 * Read once per job at planning; the tasks get this value, not a session to the metadata.
 *
 * @param table the item table of a KeyValue namespace ({@code physicalStorage.table}, the
 *     namespace's name when not set); empty for a TimeSeries one, whose tables are its slices
 * @param slices every slice, oldest first, in every status
 * @param cluster the cluster its primary storage names ({@code physicalStorage.cluster}); empty for
 *     the server's default cluster, the control plane's
 */
public record StoredNamespace(
    String name,
    String service,
    String keyspace,
    String table,
    String consistencyLevel,
    Duration acceptLimit,
    List<SliceRecord> slices,
    String cluster)
    implements Serializable {

  private static final long serialVersionUID = 1L;

  public static final String TIME_SERIES = "TIME_SERIES";
  public static final String KEY_VALUE = "KEY_VALUE";

  /**
   * One row of {@code time_slices}, serializable for Spark tasks (core's {@link TimeSlice} is not).
   */
  public record SliceRecord(
      long startMillis,
      long endMillis,
      String table,
      long secondsPerTimeBucket,
      int eventBuckets,
      String status)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The slice as core models it, for its placement and read planning. */
    public TimeSlice slice(String namespace) {
      return new TimeSlice(
          namespace,
          Instant.ofEpochMilli(startMillis),
          Instant.ofEpochMilli(endMillis),
          table,
          secondsPerTimeBucket,
          eventBuckets,
          SliceStatus.valueOf(status));
    }
  }

  /** The data source of this namespace's service: {@code varve-timeseries} or {@code varve-kv}. */
  public String format() {
    return service.equals(KEY_VALUE) ? "varve-kv" : "varve-timeseries";
  }

  /** The slices as core models them, oldest first. */
  public List<TimeSlice> timeSlices() {
    return slices.stream().map(s -> s.slice(name)).toList();
  }

  /**
   * Reads a namespace of {@code service}, or of either service when it is null.
   *
   * @throws ConfigException naming {@code namespace} when it does not exist, is being deleted or
   *     belongs to the other service, and {@code metadataKeyspace} when there is no control plane
   *     there
   */
  public static StoredNamespace load(
      CqlSession session, String metadataKeyspace, String namespace, String service) {
    String ks = CqlIdentifier.fromInternal(metadataKeyspace).asCql(true);
    if (session.getMetadata().getKeyspace(CqlIdentifier.fromInternal(metadataKeyspace)).isEmpty()
        && session
            .refreshSchema()
            .getKeyspace(CqlIdentifier.fromInternal(metadataKeyspace))
            .isEmpty()) {
      throw new ConfigException(
          "metadataKeyspace",
          metadataKeyspace,
          "the keyspace of a Varve server's control plane (its cassandra.metadataKeyspace)");
    }
    Row row =
        session
            .execute(
                SimpleStatement.newInstance(
                        "SELECT config, deleting_since FROM "
                            + ks
                            + ".namespaces WHERE namespace = ?",
                        namespace)
                    .setConsistencyLevel(
                        com.datastax.oss.driver.api.core.DefaultConsistencyLevel.SERIAL))
            .one();
    if (row == null || !row.isNull(1)) {
      throw new ConfigException(
          "namespace",
          namespace,
          row == null
              ? "an existing namespace; " + known(session, ks)
              : "a namespace that is not being deleted (DeleteNamespace marked it at "
                  + row.getInstant(1)
                  + ")");
    }
    JsonNode document = parse(namespace, row.getString(0));
    String stored = document.path("service").asText("");
    String actual = stored.isEmpty() ? TIME_SERIES : stored;
    if (service == null) {
      service = actual;
    } else if (!actual.equals(service)) {
      throw new ConfigException(
          "namespace",
          namespace + " (a " + actual + " namespace)",
          "a "
              + service
              + " namespace; use format(\""
              + (actual.equals(KEY_VALUE) ? "varve-kv" : "varve-timeseries")
              + "\") for this one");
    }
    JsonNode primary = null;
    for (JsonNode entry : document.path("persistenceConfiguration")) {
      if (entry.path("id").asText().equals("PRIMARY_STORAGE")) {
        primary = entry;
      }
    }
    if (primary == null) {
      throw new IllegalStateException(
          "namespace " + namespace + ": its stored configuration has no PRIMARY_STORAGE entry");
    }
    String keyspace = primary.path("physicalStorage").path("dataset").asText(namespace);
    String table =
        service.equals(KEY_VALUE)
            ? primary.path("physicalStorage").path("table").asText(namespace)
            : "";
    JsonNode config = primary.path("config");
    Consistency consistency =
        new Consistency(
            Consistency.parseScope(
                "consistencyScope", config.path("consistencyScope").asText("LOCAL")),
            Consistency.parseTarget(
                "consistencyTarget", config.path("consistencyTarget").asText("STRONG")));
    Duration acceptLimit = duration(config.path("acceptLimit").asText(""));
    List<SliceRecord> slices = new ArrayList<>();
    if (service.equals(TIME_SERIES)) {
      for (Row s :
          session.execute(
              SimpleStatement.newInstance(
                      "SELECT start_time, end_time, table_name, seconds_per_time_bucket,"
                          + " event_buckets, status FROM "
                          + ks
                          + ".time_slices WHERE namespace = ?",
                      namespace)
                  .setConsistencyLevel(
                      com.datastax.oss.driver.api.core.DefaultConsistencyLevel.LOCAL_QUORUM))) {
        slices.add(
            new SliceRecord(
                s.getInstant(0).toEpochMilli(),
                s.getInstant(1).toEpochMilli(),
                s.getString(2),
                s.getLong(3),
                s.getInt(4),
                s.getString(5)));
      }
      slices.sort(Comparator.comparingLong(SliceRecord::startMillis));
    }
    return new StoredNamespace(
        namespace,
        actual,
        keyspace,
        table,
        consistency.cqlLevel(),
        acceptLimit,
        List.copyOf(slices),
        primary.path("physicalStorage").path("cluster").asText(""));
  }

  private static JsonNode parse(String namespace, String json) {
    try {
      return new ObjectMapper().readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException(
          "namespace " + namespace + ": stored configuration unreadable: " + e.getMessage(), e);
    }
  }

  /** A protobuf JSON duration ({@code "129600s"}, {@code "1.5s"}); zero when absent. */
  static Duration duration(String text) {
    if (text.isEmpty()) {
      return Duration.ZERO;
    }
    if (!text.endsWith("s")) {
      throw new IllegalStateException("stored duration " + text + " is not in seconds");
    }
    BigDecimal seconds = new BigDecimal(text.substring(0, text.length() - 1));
    return Duration.ofSeconds(
        seconds.longValue(), seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
  }

  private static String known(CqlSession session, String ks) {
    TreeSet<String> names = new TreeSet<>();
    for (Row r : session.execute("SELECT namespace FROM " + ks + ".namespaces LIMIT 101")) {
      names.add(r.getString(0));
    }
    if (names.isEmpty()) {
      return "there are none";
    }
    return "there are: "
        + String.join(", ", names.size() > 100 ? names.headSet(names.last()) : names)
        + (names.size() > 100 ? ", ..." : "");
  }
}
