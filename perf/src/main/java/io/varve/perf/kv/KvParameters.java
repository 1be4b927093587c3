package io.varve.perf.kv;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The parameters of a {@code varve perf kv} run, checked by {@link KvCommand}.
 *
 * @param duration how long each side of each comparison is measured
 * @param warmup how long both sides run, not measured, before a comparison
 * @param concurrency PutItems requests (and raw batches) in flight
 * @param batch items per PutItems request (and raw batch)
 * @param itemBytes bytes of each written item (key plus value)
 * @param records records the writes spread over
 * @param mixedItems items of the record of mixed sizes
 * @param fixedFetchRows the row limit of the fixed-limit reader the adaptive one is compared with
 * @param phases the phases run, of {@link #PHASES}, in their order there
 */
record KvParameters(
    Duration duration,
    Duration warmup,
    int concurrency,
    int batch,
    int itemBytes,
    int records,
    int mixedItems,
    int fixedFetchRows,
    Set<String> phases) {

  /** Every phase of a run, in the order they run. */
  static final List<String> PHASES = List.of("put", "get", "page", "chunked", "amplification");

  boolean runs(String phase) {
    return phases.contains(phase);
  }
}
