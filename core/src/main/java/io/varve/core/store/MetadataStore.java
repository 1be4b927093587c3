package io.varve.core.store;

import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
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

  /** Replaces a namespace's record if its stored version is {@code record.version() - 1}. */
  CompletionStage<Boolean> update(NamespaceRecord record);

  CompletionStage<Optional<NamespaceRecord>> get(String namespace);

  /** Every namespace, ordered by name. */
  CompletionStage<List<NamespaceRecord>> list();

  /** The time slices of a namespace, newest first. */
  CompletionStage<List<TimeSlice>> slices(String namespace);

  /** Records a time slice whose table exists. */
  CompletionStage<Void> putSlice(TimeSlice slice);

  CompletionStage<Void> setSliceStatus(TimeSlice slice, SliceStatus status);

  /** The deployment's page-token signing key, created once by whichever server asks first. */
  CompletionStage<byte[]> pageTokenKey();
}
