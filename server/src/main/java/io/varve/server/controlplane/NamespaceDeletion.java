package io.varve.server.controlplane;

import io.varve.api.timeseries.v1.DeleteNamespaceRequest;
import io.varve.api.timeseries.v1.DeleteNamespaceResponse;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexStore;
import io.varve.core.kv.ItemTables;
import io.varve.core.kv.KvNamespace;
import io.varve.core.namespace.Names;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import io.varve.core.store.SliceTables;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DeleteNamespace, and the finishing of deletions that a restart interrupted. A deletion is a
 * sequence of idempotent steps, so that any server may run it again from the start:
 *
 * <ol>
 *   <li>the record is marked ({@code deleting_since}, one version on, a lightweight transaction):
 *       from then on no server serves or maintains the namespace (its calls answer NOT_FOUND, on
 *       other servers from their next refresh) and an UpdateNamespace racing it loses;
 *   <li>TimeSeries: every slice table is dropped and its slice forgotten, then the index slices are
 *       deleted; KeyValue: the item and chunk tables are dropped;
 *   <li>the record is removed, if still at the marked version.
 * </ol>
 *
 * The keyspace stays: other namespaces may share it. A slice table that another server's maintainer
 * created while the mark was on its way is dropped by that maintainer ({@link SliceMaintainer}),
 * which reads the record again after creating any.
 */
public final class NamespaceDeletion {

  private static final Logger log = LoggerFactory.getLogger(NamespaceDeletion.class);

  /** How long DeleteNamespace waits for the deletion before answering {@code done: false}. */
  public static final Duration ANSWER_WITHIN = Duration.ofSeconds(30);

  private final MetadataStore store;
  private final SliceTables tables;
  private final ItemTables itemTables;
  private final Optional<IndexStore> index;
  private final NamespaceRegistry registry;
  private final Clock clock;
  private final Consumer<String> forget;

  /**
   * @param forget what this server drops of a namespace being deleted besides its registry entry
   *     (events queued for its index, the KeyValue point-read cache): called once it is marked and
   *     again once it is gone
   */
  public NamespaceDeletion(
      MetadataStore store,
      SliceTables tables,
      ItemTables itemTables,
      Optional<IndexStore> index,
      NamespaceRegistry registry,
      Clock clock,
      Consumer<String> forget) {
    this.store = store;
    this.tables = tables;
    this.itemTables = itemTables;
    this.index = index;
    this.registry = registry;
    this.clock = clock;
    this.forget = forget;
  }

  /** What one run of the steps removed. */
  private record Removed(AtomicInteger tables, AtomicInteger indices) {
    Removed() {
      this(new AtomicInteger(), new AtomicInteger());
    }
  }

  public CompletionStage<DeleteNamespaceResponse> delete(DeleteNamespaceRequest request) {
    String namespace = Names.namespace("namespace", request.getNamespace());
    if (!request.getConfirmNamespace().equals(namespace)) {
      throw new InvalidFieldException(
          "confirm_namespace",
          request.getConfirmNamespace(),
          "the namespace's name '" + namespace + "' again, to confirm its deletion");
    }
    return registry
        .inspect(namespace)
        .thenCompose(
            entry -> {
              if (entry.invalid().isPresent() && entry.record().deleting()) {
                throw VarveException.failedPrecondition(
                    "namespace '"
                        + namespace
                        + "' is being deleted, but its stored configuration is outside this"
                        + " server's bounds ("
                        + entry.invalid().get()
                        + "): which tables it has is not known here; a server of the version that"
                        + " stored it can finish the deletion");
              }
              if (entry.invalid().isPresent()) {
                throw VarveException.failedPrecondition(
                    "namespace '"
                        + namespace
                        + "' cannot be deleted while its stored configuration is outside this"
                        + " server's bounds ("
                        + entry.invalid().get()
                        + "): which tables it has is not known; UpdateNamespace with valid values,"
                        + " then delete it");
              }
              if (entry.record().deleting()) {
                return CompletableFuture.completedFuture(entry.record()); // finish it
              }
              NamespaceRecord marked = entry.record().markedDeleting(clock.instant());
              return store
                  .update(marked)
                  .thenApply(
                      applied -> {
                        if (!applied) {
                          throw VarveException.failedPrecondition(
                              "namespace '"
                                  + namespace
                                  + "' was changed concurrently; read it again and retry");
                        }
                        log.info("namespace {} marked for deletion", namespace);
                        return marked;
                      });
            })
        .thenCompose(
            marked -> {
              NamespaceEntry entry = registry.put(registry.entry(marked));
              forget.accept(namespace);
              Removed removed = new Removed();
              CompletableFuture<Boolean> finished = finish(entry, removed).toCompletableFuture();
              return finished
                  .completeOnTimeout(false, ANSWER_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
                  .thenApply(
                      done ->
                          DeleteNamespaceResponse.newBuilder()
                              .setNamespace(namespace)
                              .setDone(done)
                              .setTablesDropped(removed.tables().get())
                              .setIndexSlicesDeleted(removed.indices().get())
                              .setDeleteTime(
                                  ControlPlaneHandler.timestamp(
                                      marked.deletingSince().orElseThrow()))
                              .build());
            });
  }

  /**
   * Runs the steps after the mark for a namespace marked deleted, by this server or another that
   * was interrupted; completes true once its record is removed.
   */
  public CompletionStage<Boolean> finish(NamespaceEntry entry) {
    return finish(entry, new Removed());
  }

  private CompletionStage<Boolean> finish(NamespaceEntry entry, Removed removed) {
    String namespace = entry.record().namespace();
    CompletionStage<Void> data =
        entry.keyValue().isPresent()
            ? dropItemTables(entry, removed)
            : store
                .slices(namespace)
                .thenCompose(slices -> dropSlices(entry, slices, removed))
                .thenCompose(v -> deleteIndices(entry, removed));
    return data.thenCompose(v -> store.remove(entry.record()))
        .thenApply(
            gone -> {
              registry.remove(namespace);
              forget.accept(namespace);
              if (gone) {
                log.info(
                    "namespace {} deleted: {} tables dropped, {} index slices deleted",
                    namespace,
                    removed.tables().get(),
                    removed.indices().get());
              }
              return true;
            });
  }

  /**
   * Drops a KeyValue namespace's item and chunk tables, unless another namespace names the same
   * table (a KeyValue namespace may be given an existing table): its items are that one's too.
   */
  private CompletionStage<Void> dropItemTables(NamespaceEntry entry, Removed removed) {
    KvNamespace kv = entry.keyValue().get();
    return store
        .list()
        .thenCompose(
            records -> {
              List<String> sharing =
                  records.stream()
                      .filter(r -> !r.namespace().equals(kv.namespace()))
                      .map(registry::entry)
                      .filter(
                          other ->
                              other.keyValue().isPresent()
                                  && other.keyValue().get().keyspace().equals(kv.keyspace())
                                  && other.keyValue().get().table().equals(kv.table()))
                      .map(other -> other.record().namespace())
                      .toList();
              if (!sharing.isEmpty()) {
                log.warn(
                    "namespace {}: its table {}.{} is kept: namespace(s) {} use it too",
                    kv.namespace(),
                    kv.keyspace(),
                    kv.table(),
                    sharing);
                return CompletableFuture.<Void>completedFuture(null);
              }
              return itemTables.drop(kv).thenRun(() -> removed.tables().addAndGet(2));
            });
  }

  private CompletionStage<Void> dropSlices(
      NamespaceEntry entry, List<TimeSlice> slices, Removed removed) {
    String keyspace = entry.settings().keyspace();
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (TimeSlice slice : slices) {
      chain =
          chain.thenCompose(
              v ->
                  slice.status() == SliceStatus.DELETED
                      ? CompletableFuture.<Void>completedFuture(null)
                      : tables
                          .drop(keyspace, slice.table())
                          .thenRun(() -> removed.tables().incrementAndGet()));
      for (String other : slice.lifecycle().otherTables()) { // of a re-partitioning
        chain =
            chain.thenCompose(
                v ->
                    tables.drop(keyspace, other).thenRun(() -> removed.tables().incrementAndGet()));
      }
      chain = chain.thenCompose(v -> store.removeSlice(slice));
    }
    return chain;
  }

  private CompletionStage<Void> deleteIndices(NamespaceEntry entry, Removed removed) {
    if (entry.index().isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    if (index.isEmpty()) {
      log.warn(
          "namespace {} has INDEX_STORAGE but this server has no index store (opensearch.urls):"
              + " its index slices ({}*) are left for an operator to delete",
          entry.record().namespace(),
          IndexSlices.prefix(entry.index().get()));
      return CompletableFuture.completedFuture(null);
    }
    IndexStore indexStore = index.get();
    return indexStore
        .indices(IndexSlices.prefix(entry.index().get()))
        .thenCompose(
            names -> {
              removed.indices().addAndGet(names.size());
              return names.isEmpty()
                  ? CompletableFuture.<Void>completedFuture(null)
                  : indexStore.delete(names);
            });
  }
}
