package io.varve.cassandra.cql;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.varve.core.namespace.Consistency;

/** Maps a namespace's consistency to a CQL consistency level (see {@link Consistency}). */
public final class ConsistencyLevels {

  private ConsistencyLevels() {}

  public static ConsistencyLevel of(Consistency consistency) {
    return DefaultConsistencyLevel.valueOf(consistency.cqlLevel());
  }
}
