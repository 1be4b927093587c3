package io.varve.core.store;

import java.time.Instant;
import java.util.Optional;

/**
 * A namespace as stored in the metadata keyspace: its configuration document (the JSON form of its
 * {@code persistence_configuration}, defaults filled in) and a version bumped by each update.
 *
 * @param deletingSince when a DeleteNamespace marked it for deletion: from then on it is neither
 *     served nor maintained, and the control plane removes its tables, indices and record
 */
public record NamespaceRecord(
    String namespace,
    String configJson,
    long version,
    Instant createTime,
    Instant updateTime,
    Optional<Instant> deletingSince) {

  /** A namespace that is not being deleted. */
  public NamespaceRecord(
      String namespace, String configJson, long version, Instant createTime, Instant updateTime) {
    this(namespace, configJson, version, createTime, updateTime, Optional.empty());
  }

  /** This record, one version on, marked for deletion at {@code at}. */
  public NamespaceRecord markedDeleting(Instant at) {
    return new NamespaceRecord(namespace, configJson, version + 1, createTime, at, Optional.of(at));
  }

  public boolean deleting() {
    return deletingSince.isPresent();
  }
}
