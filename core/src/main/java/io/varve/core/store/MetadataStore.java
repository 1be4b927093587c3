package io.varve.core.store;

import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The control plane's storage: namespaces and their time slices. Writes are linearizable
 * (lightweight transactions) so that several servers may run the control plane at once. A failure
 * of the store completes a stage with a {@link io.varve.core.error.StorageException}.
 */
public interface MetadataStore {

  /** Stores a new namespace; fails with ALREADY_EXISTS if the name is taken. */
  CompletionStage<Void> create(NamespaceRecord record);

  /**
   * Replaces a namespace's record (its configuration, version, update time and deletion mark) if
   * its stored version is {@code record.version() - 1}.
   */
  CompletionStage<Boolean> update(NamespaceRecord record);

  /**
   * Removes a namespace's record if its stored version is still {@code record.version()}: the last
   * step of a deletion, once its tables and slices are gone.
   *
   * @return whether it was removed; false when it was changed or removed meanwhile
   */
  CompletionStage<Boolean> remove(NamespaceRecord record);

  CompletionStage<Optional<NamespaceRecord>> get(String namespace);

  /** Every namespace, ordered by name. */
  CompletionStage<List<NamespaceRecord>> list();

  /** The time slices of a namespace, newest first. */
  CompletionStage<List<TimeSlice>> slices(String namespace);

  /** Records a time slice whose table exists. */
  CompletionStage<Void> putSlice(TimeSlice slice);

  /** Forgets a time slice whose table is dropped (a deleted namespace's). */
  CompletionStage<Void> removeSlice(TimeSlice slice);

  /**
   * Moves a slice from the status it was read with ({@code slice.status()}) to {@code status}, if
   * no one moved it meanwhile (a lightweight transaction, so that servers running the control plane
   * at once never both act on one slice: one reopening it while another drops its table).
   *
   * @param at when it moved, recorded with it
   * @return whether it moved; false when its stored status was not {@code slice.status()}
   */
  CompletionStage<Boolean> setSliceStatus(TimeSlice slice, SliceStatus status, Instant at);

  /**
   * Records that a slice's table now has the compaction {@code strategy}, if its recorded strategy
   * is still the one it was read with (a lightweight transaction, like {@link #setSliceStatus}).
   *
   * @return whether it was recorded
   */
  CompletionStage<Boolean> setSliceCompaction(TimeSlice slice, String strategy, Instant at);

  /**
   * Records a slice's measured partition sizes, if its table is still the one it was read with (a
   * lightweight transaction: a histogram never lands on a slice whose table was replaced
   * meanwhile).
   *
   * @return whether it was recorded
   */
  CompletionStage<Boolean> setSliceHistogram(
      TimeSlice slice, io.varve.core.partitioning.SliceHistogram histogram);

  /**
   * Records {@code pending} as the table a slice's re-partitioning fills (empty: none), if the
   * slice's table and pending table are still the ones it was read with (a lightweight
   * transaction).
   *
   * @return whether it was recorded
   */
  CompletionStage<Boolean> setSlicePending(
      TimeSlice slice, Optional<io.varve.core.partitioning.SliceLifecycle.PendingTable> pending);

  /**
   * Moves a slice to its pending table ({@code slice.swapped(...)} says how): its table and
   * partition settings become the pending table's, its old table is recorded as the previous one,
   * its compaction and histogram are forgotten, all in one lightweight transaction conditional on
   * the table and the pending table it was read with, so that every server reading it afterwards
   * reads the new table, and no two swaps of one slice both win.
   *
   * @param swapped the slice as it is to be stored
   * @return whether it moved
   */
  CompletionStage<Boolean> swapSliceTable(TimeSlice slice, TimeSlice swapped);

  /**
   * Forgets a slice's previous table, once dropped, if it is still the one it was read with.
   *
   * @return whether it was forgotten
   */
  CompletionStage<Boolean> forgetPreviousTable(TimeSlice slice);

  /** The deployment's page-token signing key, created once by whichever server asks first. */
  CompletionStage<byte[]> pageTokenKey();
}
