package io.varve.server.config;

import com.google.protobuf.util.Durations;
import io.varve.api.timeseries.v1.Compaction;
import io.varve.api.timeseries.v1.LifecycleConfig;
import io.varve.api.timeseries.v1.LifecycleConfigs;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.QueueBuffering;
import io.varve.api.timeseries.v1.RetentionConfig;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Limits;
import io.varve.core.index.IndexSpec;
import io.varve.core.namespace.Consistency;
import io.varve.core.namespace.Names;
import io.varve.core.namespace.NamespaceBounds;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.namespace.Retention;
import io.varve.core.namespace.TimeSeriesSlos;
import io.varve.core.partitioning.CompactionPolicy;
import io.varve.core.slo.Slos;
import io.varve.core.text.Characters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a namespace's {@code persistence_configuration} (the shape of the reference namespace
 * configuration), validates every key and fills in defaults. Errors name the key by its path, e.g.
 * {@code persistence_configuration[0].config.timePartition.eventBuckets: 0 (expected: 1..64)}.
 * Every key and default is documented in docs/namespace-configuration.md.
 *
 * <p>Every value that multiplies work is bounded here, before anything is created ({@link
 * NamespaceBounds}): slice and bucket widths, buckets per slice, the slices the write window needs
 * (which depends on the server's {@code futureLimit}), the slices held until delete_after, and
 * likewise for index slices. A stored configuration is mapped with the same checks when it is
 * loaded, so one stored under looser bounds is found and refused rather than acted on.
 */
public final class NamespaceConfigMapper {

  /** The namespace's settings and its configuration with defaults filled in. */
  public record Mapped(
      NamespaceSettings settings,
      List<PersistenceConfiguration> normalized,
      Optional<IndexSpec> index,
      NamespaceService service,
      Optional<io.varve.core.kv.KvNamespace> keyValue) {

    Mapped(
        NamespaceSettings settings,
        List<PersistenceConfiguration> normalized,
        Optional<IndexSpec> index) {
      this(settings, normalized, index, NamespaceService.TIME_SERIES, Optional.empty());
    }

    /** The keyspace of the namespace's primary storage, whichever its service. */
    public String keyspace() {
      return keyValue
          .map(io.varve.core.kv.KvNamespace::keyspace)
          .orElseGet(() -> settings.keyspace());
    }
  }

  public static final String PRIMARY = "PRIMARY_STORAGE";
  public static final String INDEX = "INDEX_STORAGE";
  static final String ROOT = "persistence_configuration";

  private final String metadataKeyspace;
  private final Duration futureLimit;
  private final Set<String> clusters;

  /** A mapper for a server with the default {@code timeseries.limits.futureLimit}. */
  public NamespaceConfigMapper(String metadataKeyspace) {
    this(metadataKeyspace, Limits.DEFAULT.futureLimit());
  }

  /**
   * @param metadataKeyspace the keyspace no namespace may use
   * @param futureLimit how far ahead of now writes are accepted: slices are created that far ahead
   */
  public NamespaceConfigMapper(String metadataKeyspace, Duration futureLimit) {
    this(metadataKeyspace, futureLimit, Set.of());
  }

  /**
   * @param clusters the names of {@code cassandra.clusters}: when there are any, {@code
   *     physicalStorage.cluster} must be empty (the default cluster) or one of them; when there are
   *     none, it is informational
   */
  public NamespaceConfigMapper(
      String metadataKeyspace, Duration futureLimit, Set<String> clusters) {
    this.metadataKeyspace = metadataKeyspace;
    this.futureLimit = futureLimit;
    this.clusters = Set.copyOf(clusters);
  }

  /** As {@link #map(String, String, List)}, the service inferred from the configuration's shape. */
  /**
   * Whether namespaces live on the cluster their {@code physicalStorage.cluster} names: the server
   * names clusters in {@code cassandra.clusters}; otherwise the name is informational.
   */
  public boolean routesByCluster() {
    return !clusters.isEmpty();
  }

  public Mapped map(String namespace, List<PersistenceConfiguration> entries) {
    return map(namespace, "", entries);
  }

  /**
   * The namespace's settings for the service {@code service} names, or the configuration's shape
   * when it is empty ({@link NamespaceService#of}).
   */
  public Mapped map(String namespace, String service, List<PersistenceConfiguration> entries) {
    Names.namespace("namespace", namespace);
    if (entries.isEmpty()) {
      throw InvalidFieldException.of(
          ROOT, "missing (expected: a list with one " + PRIMARY + " entry)");
    }
    if (NamespaceService.of(service, entries) == NamespaceService.KEY_VALUE) {
      KvNamespaceConfig.Mapped kv =
          KvNamespaceConfig.map(namespace, entries, metadataKeyspace, clusters);
      return new Mapped(
          null,
          kv.normalized(),
          Optional.empty(),
          NamespaceService.KEY_VALUE,
          Optional.of(kv.settings()));
    }
    NamespaceSettings settings = null;
    List<PersistenceConfiguration> normalized = new ArrayList<>();
    PersistenceConfiguration indexEntry = null;
    String indexPath = null;
    for (int i = 0; i < entries.size(); i++) {
      PersistenceConfiguration entry = entries.get(i);
      String path = ROOT + "[" + i + "]";
      if (entry.getConfig().getSlosCount() > 0 && !entry.getId().equals(PRIMARY)) {
        throw InvalidFieldException.of(
            path + ".config.slos",
            "set in " + entry.getId() + " (expected: in the " + PRIMARY + " entry)");
      }
      switch (entry.getId()) {
        case PRIMARY -> {
          if (settings != null) {
            throw InvalidFieldException.of(
                path + ".id", "a second " + PRIMARY + " entry (expected: exactly one)");
          }
          Mapped primary = primary(namespace, entry, path);
          settings = primary.settings();
          normalized.addAll(primary.normalized());
        }
        case INDEX -> {
          if (indexEntry != null) {
            throw InvalidFieldException.of(
                path + ".id", "a second " + INDEX + " entry (expected: at most one)");
          }
          indexEntry = entry;
          indexPath = path;
        }
        default ->
            throw new InvalidFieldException(path + ".id", entry.getId(), PRIMARY + " or " + INDEX);
      }
    }
    if (settings == null) {
      throw InvalidFieldException.of(ROOT, "no " + PRIMARY + " entry (expected: exactly one)");
    }
    Optional<IndexSpec> index = Optional.empty();
    if (indexEntry != null) {
      IndexStorageConfig.Validated validated =
          IndexStorageConfig.validate(
              namespace, indexEntry, indexPath, settings.acceptLimit(), futureLimit);
      normalized.add(validated.normalized());
      index = Optional.of(validated.spec());
    }
    return new Mapped(settings, normalized, index);
  }

  private Mapped primary(String namespace, PersistenceConfiguration entry, String path) {
    PhysicalStorage storage = entry.getPhysicalStorage();
    String type = storageType(storage, path);
    String keyspace = storage.getDataset().isEmpty() ? namespace : storage.getDataset();
    Names.keyspace(path + ".physicalStorage.dataset", keyspace, metadataKeyspace);

    StorageConfig config = entry.getConfig();
    String cfg = path + ".config";
    io.varve.core.partitioning.TimePartition partition =
        timePartition(config.getTimePartition(), cfg + ".timePartition");
    Consistency consistency = consistency(config, cfg);
    Duration acceptLimit =
        config.hasAcceptLimit()
            ? ConfigDurations.bounded(cfg + ".acceptLimit", config.getAcceptLimit())
            : NamespaceSettings.DEFAULT_ACCEPT_LIMIT;
    Buffering buffering = buffering(config.getQueueBuffering(), cfg + ".queueBuffering");
    CompactionPolicy compaction = compaction(config.getCompaction(), cfg + ".compaction");
    if (config.hasIndexConfig()) {
      throw InvalidFieldException.of(
          cfg + ".indexConfig",
          "not allowed in " + PRIMARY + " (expected: in the " + INDEX + " entry)");
    }
    Retention retention = retention(entry.getLifecycleConfigs(), path + ".lifecycleConfigs");
    checkWindow(entry, path, partition, acceptLimit, retention);
    Slos slos = SloConfig.read(TimeSeriesSlos.CATALOG, config.getSlosMap(), cfg + ".slos");
    NamespaceSettings settings =
        new NamespaceSettings(
            namespace,
            keyspace,
            partition,
            consistency,
            acceptLimit,
            retention,
            buffering.coalesce(),
            buffering.capacity(),
            buffering.drainRate(),
            slos,
            compaction,
            config.getTimePartition().getAuto());
    TimePartition.Builder normalizedPartition =
        TimePartition.newBuilder()
            .setSecondsPerTimeSlice(partition.secondsPerTimeSlice())
            .setSecondsPerTimeBucket(partition.secondsPerTimeBucket())
            .setEventBuckets(partition.eventBuckets());
    if (settings.autoPartition()) {
      normalizedPartition.setAuto(true); // absent when false, as the namespace was given
    }
    PersistenceConfiguration normalized =
        PersistenceConfiguration.newBuilder()
            .setId(PRIMARY)
            .setPhysicalStorage(storage.toBuilder().setType(type).setDataset(keyspace))
            .setConfig(
                StorageConfig.newBuilder()
                    .setTimePartition(normalizedPartition)
                    .setQueueBuffering(buffering.normalized())
                    .setConsistencyScope(consistency.scope().name())
                    .setConsistencyTarget(consistency.target().name())
                    .setAcceptLimit(ConfigDurations.of(acceptLimit))
                    .putAllSlos(SloConfig.write(slos))
                    .setCompaction(
                        Compaction.newBuilder()
                            .setOpen(compaction.open().name())
                            .setClosed(compaction.closed().name())))
            .setLifecycleConfigs(entry.getLifecycleConfigs())
            .build();
    return new Mapped(settings, List.of(normalized), Optional.empty());
  }

  /** The primary entry's {@code physicalStorage.type} (upper case), its cluster name checked. */
  private String storageType(PhysicalStorage storage, String path) {
    String type =
        storage.getType().isEmpty() ? "CASSANDRA" : storage.getType().toUpperCase(Locale.ROOT);
    if (!type.equals("CASSANDRA") && !type.equals("SCYLLADB")) {
      throw new InvalidFieldException(
          path + ".physicalStorage.type", storage.getType(), "CASSANDRA or SCYLLADB");
    }
    cluster(storage.getCluster(), path + ".physicalStorage.cluster", clusters);
    return type;
  }

  /**
   * The primary storage's cluster name, checked: at most {@link
   * NamespaceBounds#MAX_CLUSTER_NAME_LENGTH} characters, and, when the server names clusters in
   * {@code cassandra.clusters}, empty (the default cluster) or one of them.
   */
  static String cluster(String name, String field, Set<String> clusters) {
    if (Characters.count(name) > NamespaceBounds.MAX_CLUSTER_NAME_LENGTH) {
      throw new InvalidFieldException(
          field, name, "at most " + NamespaceBounds.MAX_CLUSTER_NAME_LENGTH + " characters");
    }
    if (!clusters.isEmpty() && !name.isEmpty() && !clusters.contains(name)) {
      throw new InvalidFieldException(
          field,
          name,
          "empty, for the default cluster, or a cluster of the server's cassandra.clusters: "
              + String.join(", ", new java.util.TreeSet<>(clusters)));
    }
    return name;
  }

  /** {@code consistencyScope} and {@code consistencyTarget}, each defaulted when empty. */
  private static Consistency consistency(StorageConfig config, String cfg) {
    return new Consistency(
        config.getConsistencyScope().isEmpty()
            ? Consistency.DEFAULT.scope()
            : Consistency.parseScope(cfg + ".consistencyScope", config.getConsistencyScope()),
        config.getConsistencyTarget().isEmpty()
            ? Consistency.DEFAULT.target()
            : Consistency.parseTarget(cfg + ".consistencyTarget", config.getConsistencyTarget()));
  }

  /** {@code config.compaction}, each strategy defaulted when empty. */
  private static CompactionPolicy compaction(Compaction config, String path) {
    CompactionPolicy.Open open = CompactionPolicy.DEFAULT.open();
    if (!config.getOpen().isEmpty()) {
      open = CompactionPolicy.parse(CompactionPolicy.Open.class, config.getOpen());
      if (open == null) {
        throw new InvalidFieldException(
            path + ".open", config.getOpen(), "TIME_WINDOW or CLUSTER_DEFAULT");
      }
    }
    CompactionPolicy.Closed closed = CompactionPolicy.DEFAULT.closed();
    if (!config.getClosed().isEmpty()) {
      closed = CompactionPolicy.parse(CompactionPolicy.Closed.class, config.getClosed());
      if (closed == null) {
        throw new InvalidFieldException(
            path + ".closed",
            config.getClosed(),
            "AUTO, UNIFIED, LEVELED, INCREMENTAL, SIZE_TIERED or UNCHANGED");
      }
    }
    return new CompactionPolicy(open, closed);
  }

  /** The fire-and-forget queue's settings, defaulted and bounded. */
  private record Buffering(Duration coalesce, long capacity, long drainRate) {

    /**
     * As stored: every setting given, but the drain rate when unpaced (absent, as before it
     * existed).
     */
    QueueBuffering normalized() {
      QueueBuffering.Builder b =
          QueueBuffering.newBuilder()
              .setCoalesce(ConfigDurations.of(coalesce))
              .setBufferCapacity(capacity);
      if (drainRate > 0) {
        b.setDrainRate(drainRate);
      }
      return b.build();
    }
  }

  private static Buffering buffering(QueueBuffering buffering, String path) {
    Duration coalesce =
        buffering.hasCoalesce()
            ? ConfigDurations.positive(path + ".coalesce", buffering.getCoalesce())
            : NamespaceSettings.DEFAULT_COALESCE;
    if (coalesce.compareTo(NamespaceBounds.MAX_COALESCE) > 0) {
      throw new InvalidFieldException(
          path + ".coalesce",
          InvalidFieldException.shown(coalesce.toMillis() + "ms"),
          "at most " + NamespaceBounds.MAX_COALESCE.toSeconds() + "s");
    }
    long capacity =
        buffering.hasBufferCapacity()
            ? buffering.getBufferCapacity()
            : NamespaceSettings.DEFAULT_BUFFER_CAPACITY;
    if (capacity < 0 || capacity > NamespaceBounds.MAX_BUFFER_CAPACITY) {
      throw new InvalidFieldException(
          path + ".bufferCapacity",
          capacity,
          "0 (durable writes only) or 1.." + NamespaceBounds.MAX_BUFFER_CAPACITY + " bytes");
    }
    long drainRate = buffering.getDrainRate();
    if (drainRate < 0 || drainRate > NamespaceBounds.MAX_DRAIN_RATE) {
      throw new InvalidFieldException(
          path + ".drainRate",
          drainRate,
          "0 (as fast as the store takes them) or 1.."
              + NamespaceBounds.MAX_DRAIN_RATE
              + " events per second");
    }
    return new Buffering(coalesce, capacity, drainRate);
  }

  /**
   * The write window and retention against each other and against the slices they span: no
   * acceptLimit past the retention (older events would land in closed slices), at most {@link
   * NamespaceBounds#MAX_WRITE_WINDOW_SLICES} slices in the window and {@link
   * NamespaceBounds#MAX_RETAINED_SLICES} retained.
   */
  private void checkWindow(
      PersistenceConfiguration entry,
      String path,
      io.varve.core.partitioning.TimePartition partition,
      Duration acceptLimit,
      Retention retention) {
    String cfg = path + ".config";
    Optional<Duration> closesAt = retention.closeAfter().or(retention::deleteAfter);
    if (closesAt.isPresent() && acceptLimit.compareTo(closesAt.get()) > 0) {
      throw new InvalidFieldException(
          cfg + ".acceptLimit",
          InvalidFieldException.shown(acceptLimit.toSeconds() + "s"),
          "at most the retention's "
              + (retention.closeAfter().isPresent() ? "close_after" : "delete_after")
              + " ("
              + closesAt.get().toSeconds()
              + "s): older events would land in closed slices");
    }
    NamespaceBounds.window(
        cfg + ".acceptLimit",
        acceptLimit,
        futureLimit,
        partition.secondsPerTimeSlice(),
        NamespaceBounds.MAX_WRITE_WINDOW_SLICES,
        "time slices");
    if (retention.deleteAfter().isPresent()) {
      NamespaceBounds.retained(
          deleteAfterPath(entry.getLifecycleConfigs(), path + ".lifecycleConfigs"),
          retention.deleteAfter().get(),
          acceptLimit,
          futureLimit,
          partition.secondsPerTimeSlice(),
          NamespaceBounds.MAX_RETAINED_SLICES,
          "time slices");
    }
  }

  static io.varve.core.partitioning.TimePartition timePartition(TimePartition p, String path) {
    io.varve.core.partitioning.TimePartition d = io.varve.core.partitioning.TimePartition.DEFAULT;
    long slice = p.hasSecondsPerTimeSlice() ? p.getSecondsPerTimeSlice() : d.secondsPerTimeSlice();
    if (p.hasSecondPerTimeBucket()
        && p.hasSecondsPerTimeBucket()
        && p.getSecondPerTimeBucket() != p.getSecondsPerTimeBucket()) {
      throw InvalidFieldException.of(
          path + ".secondsPerTimeBucket",
          p.getSecondsPerTimeBucket()
              + " differs from secondPerTimeBucket "
              + p.getSecondPerTimeBucket()
              + " (expected: one of the two, or equal)");
    }
    long bucket =
        p.hasSecondsPerTimeBucket()
            ? p.getSecondsPerTimeBucket()
            : p.hasSecondPerTimeBucket()
                ? p.getSecondPerTimeBucket()
                : Math.min(d.secondsPerTimeBucket(), slice);
    int eventBuckets = p.hasEventBuckets() ? p.getEventBuckets() : d.eventBuckets();
    if (p.hasSecondsPerSlice()) {
      throw InvalidFieldException.of(
          path + ".secondsPerSlice",
          "not allowed in " + PRIMARY + " (expected: secondsPerTimeSlice)");
    }
    String bucketKey =
        !p.hasSecondsPerTimeBucket() && p.hasSecondPerTimeBucket()
            ? "secondPerTimeBucket"
            : "secondsPerTimeBucket";
    io.varve.core.partitioning.TimePartition.validate(path, bucketKey, slice, bucket, eventBuckets);
    return new io.varve.core.partitioning.TimePartition(slice, bucket, eventBuckets);
  }

  static Retention retention(LifecycleConfigs configs, String path) {
    Retention retention = Retention.FOREVER;
    boolean seen = false;
    for (int i = 0; i < configs.getLifecycleConfigCount(); i++) {
      LifecycleConfig config = configs.getLifecycleConfig(i);
      String itemPath = path + ".lifecycleConfig[" + i + "]";
      if (!config.getType().equalsIgnoreCase("retention")) {
        throw new InvalidFieldException(itemPath + ".type", config.getType(), "retention");
      }
      if (seen) {
        throw InvalidFieldException.of(
            itemPath, "a second retention entry (expected: at most one)");
      }
      seen = true;
      RetentionConfig r = config.getConfig();
      Optional<Duration> close =
          r.hasCloseAfter()
              ? Optional.of(
                  ConfigDurations.bounded(itemPath + ".config.close_after", r.getCloseAfter()))
              : Optional.empty();
      Optional<Duration> delete =
          r.hasDeleteAfter()
              ? Optional.of(
                  ConfigDurations.bounded(itemPath + ".config.delete_after", r.getDeleteAfter()))
              : Optional.empty();
      if (close.isPresent() && delete.isPresent() && delete.get().compareTo(close.get()) < 0) {
        throw new InvalidFieldException(
            itemPath + ".config.delete_after",
            Durations.toString(r.getDeleteAfter()),
            "at least close_after (" + Durations.toString(r.getCloseAfter()) + ")");
      }
      retention = new Retention(close, delete);
    }
    return retention;
  }

  /** The path of the delete_after key of a validated retention (it has at most one entry). */
  static String deleteAfterPath(LifecycleConfigs configs, String path) {
    return path
        + ".lifecycleConfig["
        + (configs.getLifecycleConfigCount() - 1)
        + "].config.delete_after";
  }
}
