package io.varve.server.config;

import io.varve.core.event.Limits;
import io.varve.core.index.SearchLimits;
import io.varve.options.EffectiveConfig;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.Section;
import io.varve.options.Types;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The options of the {@code timeseries} section: read fan-out, maintenance, data-plane and search
 * limits.
 */
public final class TimeSeriesOptions {

  private static final Limits L = Limits.DEFAULT;
  private static final SearchLimits S = SearchLimits.DEFAULT;
  private static final Options.Builder OPTIONS = Options.builder();

  public static final Section TIMESERIES =
      OPTIONS.section(
          "timeseries", "The TimeSeries service: read fan-out, background maintenance, limits.");
  public static final Option<Integer> READ_FANOUT =
      OPTIONS
          .option("timeseries.readFanout", Types.integer(1, 256))
          .defaultValue(8)
          .doc(
              "Partitions a read of a new namespace scans in parallel. The fan-out then adapts per namespace to"
                  + " what reads actually needed.");
  public static final Option<Integer> MAX_READ_FANOUT =
      OPTIONS
          .option("timeseries.maxReadFanout", Types.integer(1, 1024))
          .atLeast(READ_FANOUT)
          .defaultFrom(
              v -> Math.max(32, v.get(READ_FANOUT)),
              "`32` (when absent: the larger of 32 and `readFanout`)")
          .doc(
              "Upper bound of the adaptive fan-out. Higher finds sparse events sooner at the cost of more"
                  + " concurrent reads.");
  public static final Option<Duration> SLICE_MAINTENANCE_INTERVAL =
      OPTIONS
          .option("timeseries.sliceMaintenanceInterval", Types.duration())
          .defaultValue(Duration.ofSeconds(30))
          .doc(
              "Period of the background task that creates time slices ahead of time and applies retention, and of"
                  + " the reload of namespaces changed by other servers. Keep it well below the narrowest"
                  + " `secondsPerTimeSlice`. A background worker that has not completed a cycle for ten intervals (at"
                  + " least 10 minutes) is reported by `/health` ([api.md](api.md#the-browsable-page-health-and-metrics)).");

  public static final Section COMPACTION =
      OPTIONS.section(
          "timeseries.compaction",
          "Dynamic compaction: when a server switches the table of a slice that receives no more writes"
              + " to the namespace's read-optimised strategy"
              + " ([namespace-configuration.md](namespace-configuration.md#compaction)).");
  public static final Option<Duration> COMPACTION_SWITCH_INTERVAL =
      OPTIONS
          .option("timeseries.compaction.switchInterval", Types.duration())
          .defaultValue(CompactionSchedule.DEFAULT.switchInterval())
          .doc(
              "Least time between two switches by one server, whatever the namespace: a switch makes"
                  + " every replica of the table compact it again, in the background, so switches are"
                  + " spread out rather than started for every slice at once. Servers switch"
                  + " independently: N servers make up to N switches per interval.");
  public static final Option<String> COMPACTION_WINDOW =
      OPTIONS
          .option(
              "timeseries.compaction.window",
              Types.matching(
                  Pattern.compile("|([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]"),
                  "`HH:MM-HH:MM` or empty",
                  "HH:MM-HH:MM (UTC), or empty for any time of day"))
          .defaultValue("")
          .doc(
              "The daily window, in UTC, in which switches start, e.g. `01:00-05:00` (it may span"
                  + " midnight: `22:00-04:00`); empty: any time of day. A switch started inside it may"
                  + " compact on past its end.");

  public static final Section HISTOGRAM =
      OPTIONS.section(
          "timeseries.histogram",
          "Partition histograms: how a server measures the partitions of a slice that receives no"
              + " more writes, and the size the recommended partition settings aim at"
              + " ([namespace-configuration.md](namespace-configuration.md#partition-histograms)).");
  public static final Option<Boolean> HISTOGRAM_ENABLED =
      OPTIONS
          .option("timeseries.histogram.enabled", Types.bool())
          .defaultValue(true)
          .doc(
              "Whether this server measures slices; `false`: none (recommendations and"
                  + " `timePartition.auto` then go by what other servers measured, if any).");
  public static final Option<Duration> HISTOGRAM_INTERVAL =
      OPTIONS
          .option("timeseries.histogram.interval", Types.duration())
          .defaultValue(HistogramSettings.DEFAULT_INTERVAL)
          .doc(
              "Least time between two measurements by one server, each of one slice, inside"
                  + " `timeseries.compaction.window`.");
  public static final Option<Long> HISTOGRAM_MAX_ROWS =
      OPTIONS
          .option("timeseries.histogram.maxRows", Types.longInteger(1_000, 1_000_000_000))
          .defaultValue(HistogramSettings.DEFAULT_MAX_ROWS)
          .doc(
              "Rows counted per slice at most: the store counts them (only the counts cross the"
                  + " network), a random 256th of the token ring at a time, until this many; the"
                  + " histogram is then of that share of the slice (`sampledFraction`). The piece"
                  + " being counted finishes, so a slice may cost a 256th of its rows more.");
  public static final Option<Integer> HISTOGRAM_SAMPLE_ROWS =
      OPTIONS
          .option("timeseries.histogram.sampleRows", Types.integer(0, 100_000))
          .defaultValue(HistogramSettings.DEFAULT_SAMPLE_ROWS)
          .doc(
              "Rows read back per slice, from 16 partitions drawn by their size, for the mean size"
                  + " of a row (a partition's bytes are its rows times it); read 8 at a time.");
  public static final Option<Integer> HISTOGRAM_TARGET_BYTES =
      OPTIONS
          .option("timeseries.histogram.targetPartitionBytes", Types.bytes(1024, Integer.MAX_VALUE))
          .defaultValue((int) HistogramSettings.DEFAULT_TARGET.bytes())
          .doc(
              "The size a partition should stay within: recommendations aim the 99th-percentile"
                  + " partition of future slices at half of it.");
  public static final Option<Integer> HISTOGRAM_TARGET_ROWS =
      OPTIONS
          .option("timeseries.histogram.targetPartitionRows", Types.integer(1, 1_000_000_000))
          .defaultValue((int) HistogramSettings.DEFAULT_TARGET.rows())
          .doc("The rows a partition should stay within, beside `targetPartitionBytes`.");

  public static final Section REPARTITION =
      OPTIONS.section(
          "timeseries.repartition",
          "Re-partitioning of slices that receive no more writes (`varve timeseries repartition`,"
              + " [namespace-configuration.md](namespace-configuration.md#re-partitioning-a-slice)).");
  public static final Option<Duration> REPARTITION_OLD_TABLE_GRACE =
      OPTIONS
          .option("timeseries.repartition.oldTableGrace", Types.duration())
          .defaultValue(Duration.ofHours(1))
          .doc(
              "How long a slice's former table is kept after its re-partitioning is committed, for"
                  + " the servers that have not refreshed the slice yet (within"
                  + " `sliceMaintenanceInterval`) and the reads under way; then it is dropped. At"
                  + " least twice `sliceMaintenanceInterval` plus 2 minutes; when not set, the"
                  + " larger of the default and that.");

  public static final Section READ_CACHE =
      OPTIONS.section(
          "timeseries.readCache",
          "The cache of ReadEventRecords pages of ranges that can no longer change"
              + " ([api.md](api.md#the-cache-of-immutable-ranges)).");
  public static final Option<Integer> READ_CACHE_MAX_BYTES =
      OPTIONS
          .option("timeseries.readCache.maxBytes", Types.bytes(0, Integer.MAX_VALUE))
          .defaultValue((int) ReadCacheSettings.DEFAULT_MAX_BYTES)
          .doc(
              "Bytes of pages the server keeps, per-entry overhead included; `0` turns the cache off."
                  + " The default is a thirty-second of the 1 GiB heap of `varve up`, beside the"
                  + " admission budgets that take most of the rest: give the server more heap before"
                  + " a larger cache. Least recently used pages go first.");
  public static final Option<Duration> READ_CACHE_SAFETY_MARGIN =
      OPTIONS
          .option("timeseries.readCache.safetyMargin", Types.duration())
          .defaultValue(ReadCacheSettings.DEFAULT_SAFETY_MARGIN)
          .doc(
              "How much older than the namespace's `acceptLimit` a range's end must be for its pages"
                  + " to be cached: a write accepted just inside the window may still be on its way"
                  + " (a durable write within its 60 s request timeout; a fire-and-forget event"
                  + " through its `coalesce`, at most 60 s, and retries for"
                  + " `server.admission.bufferedWriteRetry`), and servers' clocks differ. At least"
                  + " `bufferedWriteRetry` plus 2 minutes; more when the servers' clocks may differ"
                  + " by more than seconds.");

  public static final Section LIMITS =
      OPTIONS.section(
          "timeseries.limits",
          "Data-plane limits; [limits.md](limits.md) says what a client gets when it crosses one.");
  public static final Option<Integer> MAX_REQUEST_BYTES =
      OPTIONS
          .option("timeseries.limits.maxRequestBytes", Types.bytes(1024, 256 * Limits.MIB))
          .defaultValue(L.maxRequestBytes())
          .doc("Size of one HTTP request body or gRPC message.");
  public static final Option<Integer> MAX_EVENTS_PER_BATCH =
      OPTIONS
          .option("timeseries.limits.maxEventsPerBatch", Types.integer(1, 100_000))
          .defaultValue(L.maxEventsPerBatch())
          .doc("Events in one write request.");
  public static final Option<Integer> MAX_ITEMS_PER_EVENT =
      OPTIONS
          .option("timeseries.limits.maxItemsPerEvent", Types.integer(1, 10_000))
          .defaultValue(L.maxItemsPerEvent())
          .doc("Items in one event.");
  public static final Option<Integer> MAX_ITEM_KEY_BYTES =
      OPTIONS
          .option("timeseries.limits.maxItemKeyBytes", Types.bytes(1, 65_535))
          .defaultValue(L.maxItemKeyBytes())
          .doc("Size of one item key.");
  public static final Option<Integer> MAX_ITEM_VALUE_BYTES =
      OPTIONS
          .option("timeseries.limits.maxItemValueBytes", Types.bytes(1, 64 * Limits.MIB))
          .defaultValue(L.maxItemValueBytes())
          .doc("Size of one item value, before compression.");
  public static final Option<Integer> MAX_EVENT_BYTES =
      OPTIONS
          .option("timeseries.limits.maxEventBytes", Types.bytes(1, 64 * Limits.MIB))
          .defaultValue(L.maxEventBytes())
          .doc("Keys plus values of all items of one event.");
  public static final Option<Integer> MAX_TIME_SERIES_ID_BYTES =
      OPTIONS
          .option("timeseries.limits.maxTimeSeriesIdBytes", Types.bytes(1, 65_535))
          .defaultValue(L.maxTimeSeriesIdBytes())
          .doc("UTF-8 size of a `timeSeriesId`.");
  public static final Option<Integer> MAX_EVENT_ID_BYTES =
      OPTIONS
          .option("timeseries.limits.maxEventIdBytes", Types.bytes(1, 65_535))
          .defaultValue(L.maxEventIdBytes())
          .doc("UTF-8 size of an `eventId`.");
  public static final Option<Integer> MAX_PAGE_SIZE =
      OPTIONS
          .option("timeseries.limits.maxPageSize", Types.integer(1, 100_000))
          .defaultValue(L.maxPageSize())
          .doc("Largest `pageSize` of a read.");
  public static final Option<Integer> DEFAULT_PAGE_SIZE =
      OPTIONS
          .option("timeseries.limits.defaultPageSize", Types.integer(1, 100_000))
          .atMost(MAX_PAGE_SIZE)
          .defaultFrom(
              v -> Math.min(L.defaultPageSize(), v.get(MAX_PAGE_SIZE)),
              "`" + L.defaultPageSize() + "` (or `maxPageSize` when smaller)")
          .doc("Page size of a read that gives none.");
  public static final Option<Integer> MAX_PAGE_BYTES =
      OPTIONS
          .option("timeseries.limits.maxPageBytes", Types.bytes(1024, 256 * Limits.MIB))
          .defaultValue(L.maxPageBytes())
          .doc(
              "Keys plus values of the events of one read page. A page that reaches it ends early, with a"
                  + " `nextPageToken`, so that reads of large events hold and ask Cassandra for a bounded amount"
                  + " at once; it holds at least one event, whatever its size"
                  + " ([limits.md](limits.md#read-limits)).");
  public static final Option<Integer> MAX_EVENT_FILTERS =
      OPTIONS
          .option("timeseries.limits.maxEventFilters", Types.integer(0, 1000))
          .defaultValue(L.maxEventFilters())
          .doc("`eventFilters` in one read.");
  public static final Option<Duration> FUTURE_LIMIT =
      OPTIONS
          .option("timeseries.limits.futureLimit", Types.duration())
          .defaultValue(L.futureLimit())
          .doc(
              "How far ahead of the server's clock an `eventTime` may be. Also how far ahead slices are created,"
                  + " so it counts in every namespace's bound of slices per write window"
                  + " ([limits.md](limits.md#namespace-configuration-bounds)): raising it far may leave stored"
                  + " namespaces outside the bounds, which are then reported and not served.");

  public static final Section SEARCH =
      OPTIONS.section(
          "timeseries.search", "Limits of SearchEventRecords and AggregateEventRecords.");
  public static final Option<Duration> MAX_INTERVAL =
      OPTIONS
          .option("timeseries.search.maxInterval", Types.duration())
          .defaultValue(S.maxInterval())
          .doc("Widest `timeInterval` of one SearchEventRecords or AggregateEventRecords request.");
  public static final Option<Integer> SEARCH_MAX_PAGE_SIZE =
      OPTIONS
          .option("timeseries.search.maxPageSize", Types.integer(1, 10_000))
          .defaultValue(S.maxPageSize())
          .doc("Largest search `pageSize` and `distinct.pageSize`.");
  public static final Option<Integer> SEARCH_DEFAULT_PAGE_SIZE =
      OPTIONS
          .option("timeseries.search.defaultPageSize", Types.integer(1, 10_000))
          .atMost(SEARCH_MAX_PAGE_SIZE)
          .defaultFrom(
              v -> Math.min(S.defaultPageSize(), v.get(SEARCH_MAX_PAGE_SIZE)),
              "`" + S.defaultPageSize() + "` (or `maxPageSize` when smaller)")
          .doc(
              "Events in a search page (and distinct values in an aggregate page) when the request gives no"
                  + " `pageSize`.");
  public static final Option<Integer> MAX_QUERY_DEPTH =
      OPTIONS
          .option("timeseries.search.maxQueryDepth", Types.integer(1, 32))
          .defaultValue(S.maxDepth())
          .doc("Deepest nesting of `booleanQuery`.");
  public static final Option<Integer> MAX_QUERY_CLAUSES =
      OPTIONS
          .option("timeseries.search.maxQueryClauses", Types.integer(1, 1024))
          .defaultValue(S.maxClauses())
          .doc("Queries in one `booleanQuery`.");
  public static final Option<Integer> MAX_TIME_BUCKETS =
      OPTIONS
          .option("timeseries.search.maxTimeBuckets", Types.integer(1, 100_000))
          .defaultValue(S.maxTimeBuckets())
          .doc("Buckets of one `countByTime` aggregation (interval width / `bucketWidth`).");

  public static final Options ALL = OPTIONS.build();

  private TimeSeriesOptions() {}

  static Limits limits(OptionValues v) {
    return new Limits(
        v.get(MAX_REQUEST_BYTES),
        v.get(MAX_EVENTS_PER_BATCH),
        v.get(MAX_ITEMS_PER_EVENT),
        v.get(MAX_ITEM_KEY_BYTES),
        v.get(MAX_ITEM_VALUE_BYTES),
        v.get(MAX_EVENT_BYTES),
        v.get(MAX_TIME_SERIES_ID_BYTES),
        v.get(MAX_EVENT_ID_BYTES),
        v.get(MAX_PAGE_SIZE),
        v.get(DEFAULT_PAGE_SIZE),
        v.get(MAX_PAGE_BYTES),
        v.get(MAX_EVENT_FILTERS),
        v.get(FUTURE_LIMIT));
  }

  static SearchLimits search(OptionValues v) {
    return new SearchLimits(
        v.get(MAX_INTERVAL),
        v.get(SEARCH_DEFAULT_PAGE_SIZE),
        v.get(SEARCH_MAX_PAGE_SIZE),
        v.get(MAX_QUERY_DEPTH),
        v.get(MAX_QUERY_CLAUSES),
        v.get(MAX_TIME_BUCKETS));
  }

  static void effective(
      int readFanout,
      int maxReadFanout,
      Duration maintenance,
      CompactionSchedule compaction,
      ReadCacheSettings readCache,
      HistogramSettings histogram,
      Duration oldTableGrace,
      Limits l,
      SearchLimits s,
      EffectiveConfig config) {
    config
        .put(READ_FANOUT, readFanout)
        .put(MAX_READ_FANOUT, maxReadFanout)
        .put(SLICE_MAINTENANCE_INTERVAL, maintenance)
        .put(READ_CACHE_MAX_BYTES, (int) readCache.maxBytes())
        .put(READ_CACHE_SAFETY_MARGIN, readCache.safetyMargin())
        .put(COMPACTION_SWITCH_INTERVAL, compaction.switchInterval())
        .put(REPARTITION_OLD_TABLE_GRACE, oldTableGrace)
        .put(HISTOGRAM_ENABLED, histogram.enabled())
        .put(HISTOGRAM_INTERVAL, histogram.interval())
        .put(HISTOGRAM_MAX_ROWS, histogram.maxRows())
        .put(HISTOGRAM_SAMPLE_ROWS, histogram.sampleRows())
        .put(HISTOGRAM_TARGET_BYTES, (int) histogram.target().bytes())
        .put(HISTOGRAM_TARGET_ROWS, (int) histogram.target().rows())
        .put(
            COMPACTION_WINDOW,
            compaction.start().map(from -> from + "-" + compaction.end().orElseThrow()).orElse(""))
        .put(MAX_REQUEST_BYTES, l.maxRequestBytes())
        .put(MAX_EVENTS_PER_BATCH, l.maxEventsPerBatch())
        .put(MAX_ITEMS_PER_EVENT, l.maxItemsPerEvent())
        .put(MAX_ITEM_KEY_BYTES, l.maxItemKeyBytes())
        .put(MAX_ITEM_VALUE_BYTES, l.maxItemValueBytes())
        .put(MAX_EVENT_BYTES, l.maxEventBytes())
        .put(MAX_TIME_SERIES_ID_BYTES, l.maxTimeSeriesIdBytes())
        .put(MAX_EVENT_ID_BYTES, l.maxEventIdBytes())
        .put(MAX_PAGE_SIZE, l.maxPageSize())
        .put(DEFAULT_PAGE_SIZE, l.defaultPageSize())
        .put(MAX_PAGE_BYTES, l.maxPageBytes())
        .put(MAX_EVENT_FILTERS, l.maxEventFilters())
        .put(FUTURE_LIMIT, l.futureLimit())
        .put(MAX_INTERVAL, s.maxInterval())
        .put(SEARCH_MAX_PAGE_SIZE, s.maxPageSize())
        .put(SEARCH_DEFAULT_PAGE_SIZE, s.defaultPageSize())
        .put(MAX_QUERY_DEPTH, s.maxDepth())
        .put(MAX_QUERY_CLAUSES, s.maxClauses())
        .put(MAX_TIME_BUCKETS, s.maxTimeBuckets());
  }

  /** {@code timeseries.repartition.oldTableGrace}, checked against the maintenance interval. */
  static Duration oldTableGrace(OptionValues v) {
    Duration grace = v.get(REPARTITION_OLD_TABLE_GRACE);
    Duration least = v.get(SLICE_MAINTENANCE_INTERVAL).multipliedBy(2).plusMinutes(2);
    if (!v.isSet(REPARTITION_OLD_TABLE_GRACE) && grace.compareTo(least) < 0) {
      return least; // the default, raised to what a long maintenance interval needs
    }
    if (grace.compareTo(least) < 0) {
      throw new io.varve.core.error.InvalidFieldException(
          v.key(REPARTITION_OLD_TABLE_GRACE),
          REPARTITION_OLD_TABLE_GRACE.type().format(grace),
          "at least twice timeseries.sliceMaintenanceInterval plus 2 minutes ("
              + REPARTITION_OLD_TABLE_GRACE.type().format(least)
              + "): servers read the old table until they refresh the slice");
    }
    return grace;
  }

  /** The {@code timeseries.histogram} section. */
  static HistogramSettings histogram(OptionValues v) {
    return new HistogramSettings(
        v.get(HISTOGRAM_ENABLED),
        v.get(HISTOGRAM_INTERVAL),
        v.get(HISTOGRAM_MAX_ROWS),
        v.get(HISTOGRAM_SAMPLE_ROWS),
        new io.varve.core.partitioning.PartitionAdvisor.Target(
            v.get(HISTOGRAM_TARGET_BYTES), v.get(HISTOGRAM_TARGET_ROWS)));
  }

  /** The {@code timeseries.compaction} section. */
  static CompactionSchedule compaction(OptionValues v) {
    return CompactionSchedule.of(v.get(COMPACTION_SWITCH_INTERVAL), v.get(COMPACTION_WINDOW));
  }

  /**
   * The {@code timeseries.readCache} section; its safety margin checked against {@code
   * bufferedWriteRetry}, the longest a fire-and-forget event accepted inside the window may take to
   * land besides its coalescing and a request's timeout (a minute each).
   */
  static ReadCacheSettings readCache(OptionValues v, Duration bufferedWriteRetry) {
    Duration margin = v.get(READ_CACHE_SAFETY_MARGIN);
    Duration least = bufferedWriteRetry.plusMinutes(2);
    if (margin.compareTo(least) < 0) {
      throw new io.varve.core.error.InvalidFieldException(
          v.key(READ_CACHE_SAFETY_MARGIN),
          READ_CACHE_SAFETY_MARGIN.type().format(margin),
          "at least server.admission.bufferedWriteRetry plus 2 minutes ("
              + READ_CACHE_SAFETY_MARGIN.type().format(least)
              + "): an event accepted inside the window may land that late");
    }
    return new ReadCacheSettings(v.get(READ_CACHE_MAX_BYTES), margin);
  }
}
