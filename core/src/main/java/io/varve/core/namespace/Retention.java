package io.varve.core.namespace;

import java.time.Duration;
import java.util.Optional;

/**
 * Retention of a namespace's time slices, counted from a slice's end: after {@code closeAfter} it
 * is closed for reads and writes, after {@code deleteAfter} its table is dropped. Either may be
 * absent (keep forever). Whole tables are dropped: no TTL, no tombstones.
 */
public record Retention(Optional<Duration> closeAfter, Optional<Duration> deleteAfter) {

  public static final Retention FOREVER = new Retention(Optional.empty(), Optional.empty());
}
