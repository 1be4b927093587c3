package io.varve.cassandra.session;

/**
 * A cluster other than the default one, by the name namespaces give in {@code
 * physicalStorage.cluster}, and how to reach it. Its settings share the default cluster's timeouts,
 * compression, write bounds and metadata keyspace (which lives on the default cluster only).
 *
 * @param name the name namespaces route by
 * @param settings how the server reaches it
 */
public record CassandraCluster(String name, CassandraSettings settings) {}
