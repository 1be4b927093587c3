package io.varve.core.kv;

/**
 * The order of a record's items by key, fixed when the namespace's table is created ({@code WITH
 * CLUSTERING ORDER BY (key ASC|DESC)}). Keys compare as unsigned bytes.
 */
public enum ClusteringOrder {
  ASC,
  DESC
}
