package io.varve.server.controlplane;

import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.DeleteNamespaceRequest;
import io.varve.api.timeseries.v1.DeleteNamespaceResponse;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.ListNamespacesResponse;
import io.varve.api.timeseries.v1.ListTimeSlicesRequest;
import io.varve.api.timeseries.v1.ListTimeSlicesResponse;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.PartitionHistogram;
import io.varve.api.timeseries.v1.PartitionRecommendation;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexSpec;
import io.varve.core.kv.ItemTables;
import io.varve.core.namespace.Names;
import io.varve.core.partitioning.PartitionAdvisor;
import io.varve.core.partitioning.SliceHistogram;
import io.varve.core.partitioning.SliceLifecycle;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import io.varve.core.store.SliceTables;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.config.NamespaceService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The control plane's RPCs. CreateNamespace validates the configuration, creates the keyspace,
 * stores the namespace and waits (up to {@code initialSliceWait}) for the slices around now to be
 * created, so that writes succeed as soon as it returns; slices further back are created in the
 * background. UpdateNamespace replaces the configuration under a version check; new partition
 * settings apply to slices created afterwards. A namespace stored outside today's bounds is shown
 * by GetNamespace and ListNamespaces with the reason ({@code invalid_configuration}), and an
 * UpdateNamespace with valid values serves it again.
 */
public final class ControlPlaneHandler {

  private final MetadataStore store;
  private final SliceTables tables;
  private final ItemTables itemTables;
  private final NamespaceRegistry registry;
  private final SliceMaintainer maintainer;
  private final NamespaceDeletion deletion;
  private final NamespaceConfigMapper mapper;
  private final Clock clock;
  private final Duration initialSliceWait;
  private final PartitionAdvisor.Target partitionTarget;
  private final SliceRepartitions repartitions;

  public ControlPlaneHandler(
      MetadataStore store,
      SliceTables tables,
      ItemTables itemTables,
      NamespaceRegistry registry,
      SliceMaintainer maintainer,
      NamespaceDeletion deletion,
      NamespaceConfigMapper mapper,
      Clock clock,
      Duration initialSliceWait,
      PartitionAdvisor.Target partitionTarget,
      SliceRepartitions repartitions) {
    this.partitionTarget = partitionTarget;
    this.repartitions = repartitions;
    this.store = store;
    this.tables = tables;
    this.itemTables = itemTables;
    this.registry = registry;
    this.maintainer = maintainer;
    this.deletion = deletion;
    this.mapper = mapper;
    this.clock = clock;
    this.initialSliceWait = initialSliceWait;
  }

  public CompletionStage<Namespace> create(CreateNamespaceRequest request) {
    NamespaceConfigMapper.Mapped mapped =
        mapper.map(
            request.getNamespace(),
            request.getService(),
            request.getPersistenceConfigurationList());
    Instant now = clock.instant();
    NamespaceRecord record =
        new NamespaceRecord(
            request.getNamespace(),
            NamespaceDocuments.write(request.getNamespace(), mapped.service(), mapped.normalized()),
            1,
            now,
            now);
    // before anything is created: the keyspace's cluster decides where
    registry.claim(
        request.getNamespace(),
        mapped.keyspace(),
        NamespaceEntry.cluster(mapped.normalized()),
        clusterField(request.getPersistenceConfigurationList()));
    return tables
        .createKeyspaceIfMissing(mapped.keyspace())
        .thenCompose(
            v ->
                mapped.keyValue().isPresent()
                    ? itemTables.create(mapped.keyValue().get())
                    : CompletableFuture.<Void>completedFuture(null))
        .thenCompose(v -> store.create(record))
        .thenCompose(
            v -> {
              NamespaceEntry entry = registry.put(registry.entry(record));
              return maintainer
                  .maintain(entry)
                  .toCompletableFuture()
                  .completeOnTimeout(entry, initialSliceWait.toMillis(), TimeUnit.MILLISECONDS);
            })
        .thenApply(entry -> toProto(entry, true));
  }

  /** PrepareSliceRepartition: see {@link SliceRepartitions}. */
  public CompletionStage<io.varve.api.timeseries.v1.SliceRepartition> prepareRepartition(
      io.varve.api.timeseries.v1.PrepareSliceRepartitionRequest request) {
    return repartitions.prepare(request);
  }

  /** CommitSliceRepartition: see {@link SliceRepartitions}. */
  public CompletionStage<io.varve.api.timeseries.v1.SliceRepartition> commitRepartition(
      io.varve.api.timeseries.v1.CommitSliceRepartitionRequest request) {
    return repartitions.commit(request);
  }

  /** CancelSliceRepartition: see {@link SliceRepartitions}. */
  public CompletionStage<io.varve.api.timeseries.v1.SliceRepartition> cancelRepartition(
      io.varve.api.timeseries.v1.CancelSliceRepartitionRequest request) {
    return repartitions.cancel(request);
  }

  /** DeleteNamespace: see {@link NamespaceDeletion}. */
  public CompletionStage<DeleteNamespaceResponse> delete(DeleteNamespaceRequest request) {
    return deletion.delete(request);
  }

  public CompletionStage<Namespace> get(GetNamespaceRequest request) {
    Names.namespace("namespace", request.getNamespace());
    return registry.inspect(request.getNamespace()).thenApply(entry -> toProto(entry, true));
  }

  public CompletionStage<ListNamespacesResponse> list(ListNamespacesRequest request) {
    return registry
        .refresh()
        .thenApply(
            entries ->
                ListNamespacesResponse.newBuilder()
                    .addAllNamespaces(
                        entries.stream()
                            .sorted(java.util.Comparator.comparing(e -> e.record().namespace()))
                            .map(e -> toProto(e, false))
                            .toList())
                    .build());
  }

  /**
   * Existing index slices keep their mapping: a field's type cannot change, nor the dataset (base
   * index name) or slice width (which would orphan the existing indices). Fields may be added;
   * events indexed before get them by a backfill.
   */
  private static void checkIndexChange(
      UpdateNamespaceRequest request, IndexSpec current, IndexSpec next) {
    int entry = 0;
    while (!request
        .getPersistenceConfiguration(entry)
        .getId()
        .equals(NamespaceConfigMapper.INDEX)) {
      entry++;
    }
    String path = "persistence_configuration[" + entry + "]";
    if (!next.dataset().equals(current.dataset())) {
      throw new InvalidFieldException(
          path + ".physicalStorage.dataset",
          next.dataset(),
          "the namespace's base index name '" + current.dataset() + "' (it cannot change)");
    }
    if (next.secondsPerSlice() != current.secondsPerSlice()) {
      throw new InvalidFieldException(
          path + ".config.timePartition.secondsPerSlice",
          next.secondsPerSlice(),
          current.secondsPerSlice() + " (the index slice width cannot change)");
    }
    current
        .fields()
        .forEach(
            (field, type) -> {
              FieldType changed = next.fields().get(field);
              if (changed != null && changed != type) {
                throw new InvalidFieldException(
                    path + ".config.indexConfig.fieldMapping." + field,
                    changed.name(),
                    type
                        + " (existing indices map it so; a field's type cannot change, index it under a new key instead)");
              }
            });
  }

  public CompletionStage<Namespace> update(UpdateNamespaceRequest request) {
    NamespaceConfigMapper.Mapped mapped =
        mapper.map(
            request.getNamespace(),
            request.getService(),
            request.getPersistenceConfigurationList());
    return registry
        .inspect(request.getNamespace())
        .thenCompose(
            current -> {
              if (current.record().deleting()) {
                current.requireServed(); // NOT_FOUND: being deleted
              }
              long version = current.record().version();
              if (request.hasExpectedVersion() && request.getExpectedVersion() != version) {
                throw VarveException.failedPrecondition(
                    "namespace '"
                        + request.getNamespace()
                        + "' is at version "
                        + version
                        + ", not the expected_version "
                        + request.getExpectedVersion());
              }
              if (mapped.service() != current.service()) {
                throw new InvalidFieldException(
                    "service",
                    mapped.service().name(),
                    "the namespace's service " + current.service() + " (it cannot change)");
              }
              if (current.keyValue().isPresent()) {
                KvNamespaceChanges.check(
                    request, current.keyValue().get(), mapped.keyValue().orElseThrow());
              }
              String keyspace = current.keyspace();
              if (!mapped.keyspace().equals(keyspace)) {
                throw new InvalidFieldException(
                    "persistence_configuration["
                        + primary(request.getPersistenceConfigurationList())
                        + "].physicalStorage.dataset",
                    mapped.keyspace(),
                    "the namespace's keyspace '" + keyspace + "' (it cannot change)");
              }
              String cluster = NamespaceEntry.cluster(mapped.normalized());
              if (mapper.routesByCluster() && !cluster.equals(current.cluster())) {
                throw new InvalidFieldException(
                    clusterField(request.getPersistenceConfigurationList()),
                    cluster,
                    "the namespace's cluster '"
                        + current.cluster()
                        + "' (it cannot change: its data is there; copy it to a namespace"
                        + " created on the other cluster instead)");
              }
              if (current.index().isPresent() && mapped.index().isPresent()) {
                checkIndexChange(request, current.index().get(), mapped.index().get());
              }
              NamespaceRecord record =
                  new NamespaceRecord(
                      request.getNamespace(),
                      NamespaceDocuments.write(
                          request.getNamespace(), mapped.service(), mapped.normalized()),
                      version + 1,
                      current.record().createTime(),
                      clock.instant());
              return store
                  .update(record)
                  .thenCompose(
                      applied -> {
                        if (!applied) {
                          throw VarveException.failedPrecondition(
                              "namespace '"
                                  + request.getNamespace()
                                  + "' was changed concurrently; read it again and retry");
                        }
                        NamespaceEntry entry =
                            registry.put(registry.entry(record).withSlices(current.slices()));
                        return maintainer
                            .maintain(entry)
                            .toCompletableFuture()
                            .completeOnTimeout(
                                entry, initialSliceWait.toMillis(), TimeUnit.MILLISECONDS);
                      });
            })
        .thenApply(entry -> toProto(entry, true));
  }

  /** The index of the PRIMARY_STORAGE entry of a request the mapper accepted. */
  private static int primary(List<PersistenceConfiguration> entries) {
    int primary = 0;
    while (!entries.get(primary).getId().equals(NamespaceConfigMapper.PRIMARY)) {
      primary++;
    }
    return primary;
  }

  /** The field naming the cluster of a request the mapper accepted. */
  private static String clusterField(List<PersistenceConfiguration> entries) {
    return "persistence_configuration[" + primary(entries) + "].physicalStorage.cluster";
  }

  static Namespace toProto(NamespaceEntry entry, boolean withSlices) {
    Namespace.Builder ns =
        Namespace.newBuilder()
            .setNamespace(entry.record().namespace())
            .setService(entry.service().name())
            .addAllPersistenceConfiguration(entry.config())
            .setVersion(entry.record().version())
            .setCreateTime(timestamp(entry.record().createTime()))
            .setUpdateTime(timestamp(entry.record().updateTime()));
    entry.invalid().ifPresent(ns::setInvalidConfiguration);
    entry.record().deletingSince().ifPresent(at -> ns.setDeleteTime(timestamp(at)));
    if (withSlices) {
      entry.slices().forEach(slice -> ns.addTimeSlices(toProto(slice)));
    }
    return ns.build();
  }

  static io.varve.api.timeseries.v1.TimeSlice toProto(TimeSlice slice) {
    io.varve.api.timeseries.v1.TimeSlice.Builder proto =
        io.varve.api.timeseries.v1.TimeSlice.newBuilder()
            .setStartTime(timestamp(slice.start()))
            .setEndTime(timestamp(slice.end()))
            .setTable(slice.table())
            .setSecondsPerTimeBucket(slice.secondsPerTimeBucket())
            .setEventBuckets(slice.eventBuckets())
            .setStatus(slice.status().name());
    SliceLifecycle lifecycle = slice.lifecycle();
    lifecycle.statusTime().ifPresent(at -> proto.setStatusTime(timestamp(at)));
    lifecycle.compaction().ifPresent(proto::setCompaction);
    lifecycle.compactionTime().ifPresent(at -> proto.setCompactionTime(timestamp(at)));
    lifecycle.histogram().ifPresent(h -> proto.setHistogram(toProto(h)));
    lifecycle.pending().ifPresent(p -> proto.setPendingTable(p.table()));
    lifecycle
        .previous()
        .ifPresent(
            p ->
                proto
                    .setPreviousTable(p.table())
                    .setPreviousTableDropTime(timestamp(p.dropAfter())));
    return proto.build();
  }

  static PartitionHistogram toProto(SliceHistogram h) {
    PartitionHistogram.Builder proto =
        PartitionHistogram.newBuilder()
            .setMeasureTime(timestamp(h.measuredAt()))
            .setSampledFraction(h.sampledFraction())
            .setPartitions(h.partitions())
            .setRows(h.rows())
            .setMeanRowBytes(h.meanRowBytes())
            .setP50Rows(h.p50Rows())
            .setP99Rows(h.p99Rows())
            .setMaxRows(h.maxRows())
            .setP99Bytes(h.p99Bytes())
            .setMaxBytes(h.maxBytes())
            .setDensestTimeSeriesId(h.densestSeries());
    for (long n : h.rowsLog2()) {
      proto.addRowsLog2(n);
    }
    return proto.build();
  }

  /** The recommendation from the newest slice with partitions measured, if any. */
  private java.util.Optional<PartitionRecommendation> recommendation(NamespaceEntry entry) {
    return entry.slices().stream()
        .filter(PartitionAdvisor::hasPartitions)
        .max(java.util.Comparator.comparing(TimeSlice::start))
        .map(
            slice -> {
              PartitionAdvisor.Recommendation r =
                  PartitionAdvisor.recommend(
                      slice,
                      slice.lifecycle().histogram().orElseThrow(),
                      entry.settings().partition(),
                      partitionTarget);
              return PartitionRecommendation.newBuilder()
                  .setSecondsPerTimeBucket(r.secondsPerTimeBucket())
                  .setEventBuckets(r.eventBuckets())
                  .setLoad(r.load())
                  .setBasedOn(timestamp(r.basedOn()))
                  .setReason(r.reason())
                  .setCurrent(r.matches(entry.settings().partition()))
                  .build();
            });
  }

  /** ListTimeSlices: the slices as the store holds them now, not this server's cached copy. */
  public CompletionStage<ListTimeSlicesResponse> listSlices(ListTimeSlicesRequest request) {
    Names.namespace("namespace", request.getNamespace());
    return registry
        .inspect(request.getNamespace())
        .thenApply(
            entry -> {
              if (entry.record().deleting()) {
                entry.requireServed(); // NOT_FOUND: being deleted
              }
              if (entry.service() != NamespaceService.TIME_SERIES) {
                throw new InvalidFieldException(
                    "namespace",
                    request.getNamespace(),
                    "a TIME_SERIES namespace; this one belongs to the "
                        + entry.service()
                        + " service and has no time slices");
              }
              ListTimeSlicesResponse.Builder response = ListTimeSlicesResponse.newBuilder();
              entry.slices().forEach(slice -> response.addTimeSlices(toProto(slice)));
              if (entry.served()) {
                recommendation(entry).ifPresent(response::setRecommendation);
              }
              return response.build();
            });
  }

  static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }
}
