package io.varve.core.store;

import java.time.Instant;

/**
 * A namespace as stored in the metadata keyspace: its configuration document (the JSON form of its
 * {@code persistence_configuration}, defaults filled in) and a version bumped by each update.
 */
public record NamespaceRecord(
    String namespace, String configJson, long version, Instant createTime, Instant updateTime) {}
