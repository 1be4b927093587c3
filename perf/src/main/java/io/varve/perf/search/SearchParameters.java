package io.varve.perf.search;

/**
 * What {@code varve perf search} does, from its options (see {@link SearchCommand} for their
 * meaning and ranges).
 *
 * @param documentMode {@code REVERSE_INDEX} or {@code FULL_EVENT}
 * @param queueCapacity the server's {@code opensearch.queueCapacity}
 */
record SearchParameters(
    int events,
    int writers,
    int batch,
    int requests,
    int warmup,
    int clients,
    int probes,
    int probeIntervalMs,
    int backgroundRate,
    String documentMode,
    int queueCapacity) {}
