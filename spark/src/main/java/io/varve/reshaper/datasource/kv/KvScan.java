package io.varve.reshaper.datasource.kv;

import io.varve.reshaper.config.NamespaceSourceOptions;
import io.varve.reshaper.datasource.KeyFilters;
import io.varve.reshaper.datasource.NamespaceAccess;
import io.varve.reshaper.datasource.ReadMetrics;
import io.varve.reshaper.plan.TokenRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A read of a KeyValue namespace's item table: by token range, the ring cut into {@code splitCount}
 * parts, or, with a pushed filter on {@code id} (equality or IN, as a {@code match_keys} names
 * records), the records by key, at most {@value #MAX_IDS} of them. Its {@link #description()},
 * which {@code explain()} prints, names the namespace, the pushed filters and how the rows are
 * reached.
 */
final class KvScan implements Scan, Batch {

  /** At most this many records are read by key; more ids than that scan token ranges. */
  static final int MAX_IDS = 100_000;

  /**
   * The reads of one Spark partition: the token range {@code (start, end]}, or the records of
   * {@code ids} when there are any.
   */
  record Part(long start, long end, List<String> ids) implements InputPartition {}

  /** Pushes filters on {@code id}, then builds the scan. */
  static final class Builder implements ScanBuilder, SupportsPushDownFilters {
    private final NamespaceAccess access;
    private Set<String> ids;
    private List<Filter> pushed = List.of();

    Builder(NamespaceAccess access) {
      this.access = access;
    }

    @Override
    public Filter[] pushFilters(Filter[] given) {
      List<Filter> taken = new ArrayList<>();
      ids = KeyFilters.narrow(given, ItemColumns.ID, taken);
      pushed = List.copyOf(taken);
      return given; // every one is evaluated again after the scan: exact, and cheap
    }

    @Override
    public Filter[] pushedFilters() {
      return pushed.toArray(new Filter[0]);
    }

    @Override
    public Scan build() {
      return new KvScan(access, ids, pushed);
    }
  }

  private final NamespaceAccess access;
  private final List<Filter> pushed;
  private final Set<String> ids;
  private final List<Part> parts;
  private final boolean byKey;

  private KvScan(NamespaceAccess access, Set<String> ids, List<Filter> pushed) {
    this.access = access;
    this.pushed = pushed;
    this.ids = ids;
    this.byKey = ids != null && ids.size() <= MAX_IDS && !access.shareOfRing();
    this.parts =
        byKey
            ? byId(
                List.copyOf(ids),
                Math.max(1, 4 * SparkSession.active().sparkContext().defaultParallelism()))
            : byRange(access.tokenRange(), access.splitCount());
  }

  static List<Part> byRange(NamespaceSourceOptions.TokenSpan span, int splitCount) {
    List<Part> parts = new ArrayList<>(splitCount);
    for (TokenRange range : TokenRange.split(span.start(), span.end(), splitCount)) {
      parts.add(new Part(range.start(), range.end(), List.of()));
    }
    return parts;
  }

  /** The records of {@code ids} cut into at most {@code maxParts} parts of nearly equal counts. */
  static List<Part> byId(List<String> ids, int maxParts) {
    int count = Math.min(maxParts, ids.size());
    List<Part> parts = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int from = (int) ((long) ids.size() * i / count);
      int to = (int) ((long) ids.size() * (i + 1) / count);
      parts.add(new Part(0, 0, List.copyOf(ids.subList(from, to))));
    }
    return parts;
  }

  @Override
  public StructType readSchema() {
    return ItemColumns.SCHEMA;
  }

  @Override
  public String description() {
    return "varve-kv namespace="
        + access.namespace().name()
        + " table="
        + access.namespace().keyspace()
        + "."
        + access.namespace().table()
        + " PushedFilters: "
        + pushed
        + " reads="
        + (byKey
            ? "records by key of id IN " + KeyFilters.shown(ids)
            : "token ranges of the item table"
                + access.shareShown()
                + (ids != null && ids.size() > MAX_IDS ? " (more than " + MAX_IDS + " ids)" : ""))
        + " parts="
        + parts.size()
        + " consistency="
        + access.consistencyLevel();
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    return parts.toArray(new InputPartition[0]);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new ItemReader.Factory(
        access.connector(),
        access.namespace().name(),
        access.namespace().keyspace(),
        access.namespace().table(),
        access.consistencyLevel(),
        access.connection().fetchSize());
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return ReadMetrics.supported();
  }
}
