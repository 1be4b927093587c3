package io.varve.reshaper.datasource.timeseries;

import io.varve.core.partitioning.TimeSlice;
import io.varve.reshaper.datasource.KeyFilters;
import io.varve.reshaper.datasource.NamespaceAccess;
import io.varve.reshaper.datasource.ReadMetrics;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
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
 * A read of a TimeSeries namespace: the interval of the {@code from} and {@code to} options
 * narrowed by the pushed filters ({@link EventFilters}), planned into parts ({@link EventReads}).
 * Its {@link #description()}, which {@code explain()} prints, names the namespace, the interval,
 * the slices read, the pushed filters and how the rows are reached.
 */
final class TimeSeriesScan implements Scan, Batch {

  /** Pushes filters, then builds the scan. */
  static final class Builder implements ScanBuilder, SupportsPushDownFilters {
    private final NamespaceAccess access;
    private EventFilters filters;

    Builder(NamespaceAccess access) {
      this.access = access;
      this.filters = EventFilters.of(fromMillis(access), toMillis(access), new Filter[0]);
    }

    @Override
    public Filter[] pushFilters(Filter[] given) {
      filters = EventFilters.of(fromMillis(access), toMillis(access), given);
      return given; // every one is evaluated again after the scan: exact, and cheap
    }

    @Override
    public Filter[] pushedFilters() {
      return filters.pushed().toArray(new Filter[0]);
    }

    @Override
    public Scan build() {
      return new TimeSeriesScan(access, filters);
    }
  }

  private final NamespaceAccess access;
  private final EventFilters filters;
  private final List<TimeSlice> slices;
  private final List<EventReads.Part> parts;
  private final boolean byKey;

  private TimeSeriesScan(NamespaceAccess access, EventFilters filters) {
    this.access = access;
    this.filters = filters;
    this.slices =
        filters.empty()
            ? List.of()
            : EventReads.slices(
                access.namespace().timeSlices(), filters.fromMillis(), filters.toMillis());
    List<EventReads.Part> keyed =
        filters.series().isPresent() && !access.shareOfRing()
            ? EventReads.byKey(
                slices,
                filters.series().get(),
                filters.fromMillis(),
                filters.toMillis(),
                Math.max(1, 4 * SparkSession.active().sparkContext().defaultParallelism()))
            : null;
    this.byKey = keyed != null;
    this.parts =
        keyed != null
            ? keyed
            : EventReads.byRange(
                slices,
                filters.fromMillis(),
                filters.toMillis(),
                access.tokenRange().start(),
                access.tokenRange().end(),
                access.splitCount());
  }

  static long fromMillis(NamespaceAccess access) {
    return access.from().map(Instant::toEpochMilli).orElse(Long.MIN_VALUE);
  }

  static long toMillis(NamespaceAccess access) {
    return access.to().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
  }

  @Override
  public StructType readSchema() {
    return EventColumns.SCHEMA;
  }

  @Override
  public String description() {
    return "varve-timeseries namespace="
        + access.namespace().name()
        + " interval=["
        + bound(filters.fromMillis())
        + ", "
        + bound(filters.toMillis())
        + ") slices="
        + slices.stream().map(TimeSlice::table).collect(Collectors.joining(",", "[", "]"))
        + " PushedFilters: "
        + filters.pushed()
        + " reads="
        + (byKey
            ? "partitions by key of time_series_id IN "
                + KeyFilters.shown(filters.series().orElseThrow())
            : "token ranges of every slice" + access.shareShown())
        + " parts="
        + parts.size()
        + " consistency="
        + access.consistencyLevel();
  }

  private static String bound(long millis) {
    return millis == Long.MIN_VALUE || millis == Long.MAX_VALUE
        ? "unbounded"
        : Instant.ofEpochMilli(millis).toString();
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
    return new EventReader.Factory(
        access.connector(),
        access.namespace().name(),
        access.namespace().keyspace(),
        access.consistencyLevel(),
        access.connection().fetchSize());
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return ReadMetrics.supported();
  }
}
