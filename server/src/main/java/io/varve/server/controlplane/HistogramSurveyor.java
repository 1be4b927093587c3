package io.varve.server.controlplane;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.PartitionAdvisor;
import io.varve.core.partitioning.SliceHistogram;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import io.varve.core.store.SliceTables;
import io.varve.server.config.CompactionSchedule;
import io.varve.server.config.HistogramSettings;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.health.BackgroundWorker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition histograms: measures, on its own thread, the partitions of slices that can no longer
 * receive writes (their end older than the accept limit), one slice per {@link
 * HistogramSettings#interval()} per server inside {@code timeseries.compaction.window}, the newest
 * unmeasured slice first (the latest data says most about future slices), and records each
 * histogram on its slice. A slice is measured once: its data no longer changes.
 *
 * <p>For a namespace with {@code timePartition.auto}, a histogram newer than any other of its
 * slices then sets the namespace's time bucket width and event buckets to the {@link
 * PartitionAdvisor}'s recommendation when it differs, through the same versioned update as
 * UpdateNamespace; future slices get them, existing slices keep theirs. A failed measurement leaves
 * the slice unmeasured; it is tried again after a dozen intervals, others going first. Metrics:
 * {@code varve_slice_histogram_measurements_total{outcome}}, {@code varve_slice_histogram_pending}
 * and {@code varve_partition_settings_applied_total}.
 */
public final class HistogramSurveyor implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HistogramSurveyor.class);

  private final NamespaceRegistry registry;
  private final MetadataStore store;
  private final SliceTables tables;
  private final NamespaceConfigMapper mapper;
  private final Clock clock;
  private final HistogramSettings settings;
  private final CompactionSchedule schedule;
  private final BackgroundWorker worker;
  private final Counter measured;
  private final Counter failed;
  private final Counter applied;
  private final AtomicInteger pending = new AtomicInteger();
  private final Map<String, Instant> retryAfter = new ConcurrentHashMap<>();
  private volatile Optional<Instant> last = Optional.empty();
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "varve-slice-histogram");
            t.setDaemon(true);
            return t;
          });

  public HistogramSurveyor(
      NamespaceRegistry registry,
      MetadataStore store,
      SliceTables tables,
      NamespaceConfigMapper mapper,
      Clock clock,
      HistogramSettings settings,
      CompactionSchedule compaction,
      BackgroundWorker worker,
      MeterRegistry metrics) {
    this.registry = registry;
    this.store = store;
    this.tables = tables;
    this.mapper = mapper;
    this.clock = clock;
    this.settings = settings;
    // the compaction's daily window, at the measurements' own pace
    this.schedule =
        new CompactionSchedule(settings.interval(), compaction.start(), compaction.end());
    this.worker = worker;
    this.measured = outcome(metrics, "measured");
    this.failed = outcome(metrics, "failed");
    this.applied =
        Counter.builder("varve.partition.settings.applied")
            .description(
                "namespaces whose partition settings timePartition.auto set from a histogram")
            .register(metrics);
    Gauge.builder("varve.slice.histogram.pending", pending, AtomicInteger::get)
        .description("slices past their accept limit not measured yet, at the last look")
        .register(metrics);
  }

  private static Counter outcome(MeterRegistry metrics, String outcome) {
    return Counter.builder("varve.slice.histogram.measurements")
        .description("slice partition histograms measured")
        .tag("outcome", outcome)
        .register(metrics);
  }

  /** Looks for a slice to measure every {@code period}, from now; nothing when measuring is off. */
  public void start(Duration period) {
    if (settings.enabled()) {
      scheduler.scheduleWithFixedDelay(
          () -> worker.run(this::cycle), 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** A slice to measure, of a served TimeSeries namespace. */
  private record Candidate(NamespaceEntry entry, TimeSlice slice) {}

  /**
   * One look: measures the newest unmeasured slice past its accept limit when the schedule allows.
   * Throws when the measurement failed (the worker records it).
   */
  void cycle() {
    Instant now = clock.instant();
    List<Candidate> all = candidates(registry.cached(), now);
    pending.set(all.size());
    if (all.isEmpty() || !schedule.allows(now, last)) {
      return;
    }
    last = Optional.of(now);
    Candidate c =
        all.stream().max(Comparator.comparing((Candidate x) -> x.slice().end())).orElseThrow();
    measure(c, now);
  }

  private List<Candidate> candidates(Collection<NamespaceEntry> entries, Instant now) {
    List<Candidate> all = new ArrayList<>();
    for (NamespaceEntry entry : entries) {
      if (!entry.served() || entry.keyValue().isPresent()) {
        continue;
      }
      Instant writable = now.minus(entry.settings().acceptLimit());
      for (TimeSlice slice : entry.slices()) {
        Instant due = retryAfter.get(key(entry.settings(), slice));
        if (slice.status() == SliceStatus.ACTIVE
            && slice.end().isBefore(writable)
            && slice.lifecycle().histogram().isEmpty()
            && (due == null || !now.isBefore(due))) {
          all.add(new Candidate(entry, slice));
        }
      }
    }
    return all;
  }

  private static String key(NamespaceSettings s, TimeSlice slice) {
    return s.keyspace() + "." + slice.table();
  }

  private void measure(Candidate c, Instant now) {
    NamespaceSettings s = c.entry().settings();
    TimeSlice slice = c.slice();
    SliceHistogram histogram;
    boolean recorded;
    try {
      histogram =
          tables.measure(s.keyspace(), slice.table(), settings.maxRows(), settings.sampleRows());
      recorded = store.setSliceHistogram(slice, histogram).toCompletableFuture().join();
    } catch (RuntimeException e) {
      failed.increment();
      retryAfter.put(key(s, slice), now.plus(settings.interval().multipliedBy(12)));
      throw new IllegalStateException(
          "measuring the partitions of time slice "
              + s.keyspace()
              + "."
              + slice.table()
              + " failed (tried again later; the slice is unaffected)",
          e);
    }
    retryAfter.remove(key(s, slice));
    measured.increment();
    if (recorded) { // seen at once, before the next reload of the namespace's slices
      registry
          .known(s.namespace())
          .ifPresent(
              e ->
                  registry.put(
                      e.withSlices(
                          e.slices().stream()
                              .map(
                                  x ->
                                      x.start().equals(slice.start())
                                              && x.table().equals(slice.table())
                                          ? x.withHistogram(histogram)
                                          : x)
                              .toList())));
    }
    log.info(
        "measured time slice {}.{} of namespace {}: {} partitions, {} rows ({} of the ring), rows"
            + " per partition p50 {} p99 {} max {} ({}), about {} bytes a row",
        s.keyspace(),
        slice.table(),
        s.namespace(),
        histogram.partitions(),
        histogram.rows(),
        histogram.sampledFraction(),
        histogram.p50Rows(),
        histogram.p99Rows(),
        histogram.maxRows(),
        histogram.densestSeries(),
        histogram.meanRowBytes());
    if (recorded
        && s.autoPartition()
        && histogram.partitions() > 0
        && newestMeasured(c.entry(), slice)) {
      PartitionAdvisor.Recommendation r =
          PartitionAdvisor.recommend(slice, histogram, s.partition(), settings.target());
      if (!r.matches(s.partition())) {
        apply(c.entry(), r);
      }
    }
  }

  /**
   * Whether no other slice of the namespace with partitions measured so far is newer than {@code
   * slice} (an empty slice says nothing of the data).
   */
  private static boolean newestMeasured(NamespaceEntry entry, TimeSlice slice) {
    return entry.slices().stream()
        .filter(PartitionAdvisor::hasPartitions)
        .noneMatch(other -> other.start().isAfter(slice.start()));
  }

  /**
   * Sets the namespace's time bucket width and event buckets to {@code r}, under its version: a
   * change made meanwhile (by UpdateNamespace or another server) wins, and the next histogram
   * decides again.
   */
  private void apply(NamespaceEntry entry, PartitionAdvisor.Recommendation r) {
    NamespaceRecord current = entry.record();
    String namespace = current.namespace();
    CreateNamespaceRequest document = NamespaceDocuments.read(current.configJson());
    List<PersistenceConfiguration> changed = new ArrayList<>();
    for (PersistenceConfiguration p : document.getPersistenceConfigurationList()) {
      if (p.getId().equals(NamespaceConfigMapper.PRIMARY)) {
        PersistenceConfiguration.Builder b = p.toBuilder();
        b.getConfigBuilder()
            .getTimePartitionBuilder()
            .clearSecondPerTimeBucket()
            .setSecondsPerTimeBucket(r.secondsPerTimeBucket())
            .setEventBuckets(r.eventBuckets());
        p = b.build();
      }
      changed.add(p);
    }
    NamespaceConfigMapper.Mapped mapped = mapper.map(namespace, document.getService(), changed);
    NamespaceRecord next =
        new NamespaceRecord(
            namespace,
            NamespaceDocuments.write(namespace, mapped.service(), mapped.normalized()),
            current.version() + 1,
            current.createTime(),
            clock.instant());
    if (!store.update(next).toCompletableFuture().join()) {
      log.info(
          "namespace {} changed while its partition settings were being set from a histogram;"
              + " the next histogram decides again",
          namespace);
      return;
    }
    registry.put(registry.entry(next).withSlices(entry.slices()));
    applied.increment();
    log.info(
        "namespace {} (timePartition.auto): future time slices get {} event buckets and time"
            + " buckets of {} s, were {} and {} s: {}",
        namespace,
        r.eventBuckets(),
        r.secondsPerTimeBucket(),
        entry.settings().partition().eventBuckets(),
        entry.settings().partition().secondsPerTimeBucket(),
        r.reason());
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
