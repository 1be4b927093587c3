package io.varve.server.controlplane;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.CompactionPolicy;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.SliceTables;
import io.varve.server.config.CompactionSchedule;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dynamic compaction: switches the table of a slice that can no longer receive writes (its end
 * older than the namespace's accept limit) from the strategy it was written with to the namespace's
 * read-optimised one ({@link CompactionPolicy#closed()}), then records the strategy on the slice.
 * At most one slice per {@link CompactionSchedule#switchInterval()} per server, inside the
 * schedule's window, the slice that left its write window first, first: when slices leave their
 * write windows faster than the schedule switches them, each still waits a bounded time (the
 * backlog times the interval) rather than the oldest waiting for ever behind newer ones. Only
 * ACTIVE slices: a CLOSED one is not read, and is switched if it opens again.
 *
 * <p>The switch is an ALTER TABLE (idempotent) followed by a lightweight transaction from the
 * strategy recorded before: a server stopped between the two, or a failed record, leaves a slice
 * that the next cycle switches again, which changes nothing on the table and records it. A failure
 * leaves the slice readable (a table is read whatever its strategy) and is retried after a dozen
 * intervals, other slices going first meanwhile. Metrics: {@code
 * varve_slice_compaction_switches_total{outcome}} and {@code varve_slice_compaction_pending}
 * (slices waiting for their switch at the last look).
 */
public final class CompactionSwitcher {

  private static final Logger log = LoggerFactory.getLogger(CompactionSwitcher.class);

  private final MetadataStore store;
  private final SliceTables tables;
  private final Clock clock;
  private final CompactionSchedule schedule;
  private final Counter switched;
  private final Counter failed;
  private final AtomicInteger pending = new AtomicInteger();
  private volatile Optional<Instant> lastSwitch = Optional.empty();

  /** Tables whose switch failed, and when to try them again: one broken table blocks no other. */
  private final java.util.Map<String, Instant> retryAfter =
      new java.util.concurrent.ConcurrentHashMap<>();

  public CompactionSwitcher(
      MetadataStore store,
      SliceTables tables,
      Clock clock,
      CompactionSchedule schedule,
      MeterRegistry metrics) {
    this.store = store;
    this.tables = tables;
    this.clock = clock;
    this.schedule = schedule;
    this.switched =
        Counter.builder("varve.slice.compaction.switches")
            .description("slice tables switched to their read-optimised compaction")
            .tag("outcome", "switched")
            .register(metrics);
    this.failed =
        Counter.builder("varve.slice.compaction.switches")
            .description("slice tables switched to their read-optimised compaction")
            .tag("outcome", "failed")
            .register(metrics);
    Gauge.builder("varve.slice.compaction.pending", pending, AtomicInteger::get)
        .description("slices past their accept limit whose table still has its write-time strategy")
        .register(metrics);
  }

  /** A slice to switch, and the strategy it switches to. */
  private record Candidate(NamespaceSettings namespace, TimeSlice slice, String target) {}

  /**
   * One look at the served TimeSeries namespaces (with their slices): switches at most one slice
   * when the schedule allows. Completes exceptionally when the switch failed.
   */
  public CompletionStage<Void> cycle(Collection<NamespaceEntry> entries) {
    Instant now = clock.instant();
    List<CompletableFuture<List<Candidate>>> found = new ArrayList<>();
    for (NamespaceEntry entry : entries) {
      if (!entry.served() || entry.keyValue().isPresent()) {
        continue;
      }
      NamespaceSettings s = entry.settings();
      found.add(
          tables
              .closedStrategy(s.keyspace(), s.compaction().closed())
              .thenApply(target -> candidates(s, entry.slices(), target, now))
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(found.toArray(CompletableFuture[]::new))
        .thenCompose(
            v -> {
              List<Candidate> all = new ArrayList<>();
              found.forEach(f -> all.addAll(f.join()));
              all.removeIf(
                  c -> {
                    Instant due =
                        retryAfter.get(c.namespace().keyspace() + "." + c.slice().table());
                    return due != null && now.isBefore(due);
                  });
              pending.set(all.size());
              if (all.isEmpty() || !schedule.allows(now, lastSwitch)) {
                return CompletableFuture.completedFuture(null);
              }
              lastSwitch = Optional.of(now);
              return switchOne(
                  all.stream()
                      .min(Comparator.comparing((Candidate c) -> c.slice().end()))
                      .orElseThrow(),
                  now);
            });
  }

  private static List<Candidate> candidates(
      NamespaceSettings s, List<TimeSlice> slices, Optional<String> target, Instant now) {
    if (target.isEmpty()) {
      return List.of(); // UNCHANGED
    }
    Instant writable = now.minus(s.acceptLimit());
    return slices.stream()
        .filter(slice -> slice.status() == SliceStatus.ACTIVE)
        .filter(slice -> slice.end().isBefore(writable))
        .filter(slice -> !slice.lifecycle().compaction().equals(target))
        .map(slice -> new Candidate(s, slice, target.get()))
        .toList();
  }

  private CompletionStage<Void> switchOne(Candidate c, Instant now) {
    String keyspace = c.namespace().keyspace();
    String table = c.slice().table();
    return tables
        .compactClosed(keyspace, table, c.namespace().compaction().closed())
        .thenCompose(v -> store.setSliceCompaction(c.slice(), c.target(), now))
        .handle(
            (recorded, error) -> {
              if (error != null) {
                failed.increment();
                // tried again after a dozen intervals (an hour by default); others go first
                retryAfter.put(
                    keyspace + "." + table, now.plus(schedule.switchInterval().multipliedBy(12)));
                log.warn(
                    "switching the compaction of time slice {}.{} to {} failed (retried next"
                        + " cycle; the slice stays readable): {}",
                    keyspace,
                    table,
                    c.target(),
                    error.toString());
                throw new java.util.concurrent.CompletionException(error);
              }
              retryAfter.remove(keyspace + "." + table);
              if (recorded) {
                switched.increment();
                log.info(
                    "switched the compaction of time slice {}.{} from {} to {}: it receives no more"
                        + " writes",
                    keyspace,
                    table,
                    c.slice().lifecycle().compaction().orElse("the cluster's default"),
                    c.target());
              }
              return null;
            });
  }
}
