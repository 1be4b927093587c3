package io.varve.perf.dataplane;

import java.time.Duration;

/**
 * The options of {@code varve perf dataplane}, checked by {@link DataPlaneCommand}.
 *
 * @param warmup how long both sides of the buffered comparison write before it is measured; also
 *     the warm-up of each latency measurement
 * @param events events per side in each round of the buffered comparison (two halves each)
 * @param rounds rounds of the buffered comparison
 * @param batch events per request
 * @param concurrency requests in flight per side of the buffered comparison
 * @param burstDuration how long the burst lasts
 * @param burstFactor the burst's rate ÷ the sustainable rate
 * @param burstDrainShare the namespace's drain rate during the burst ÷ the sustainable rate; 0:
 *     unpaced
 * @param overloadDuration how long the overload lasts
 * @param overloadFactor the overload's rate ÷ the sustainable rate
 * @param delayShare the share of the reads the hedging phase's proxy delays
 * @param delayMin the shortest of its delays
 * @param delayMax the longest of its delays
 * @param hedgeDelay how long the hedging client waits for an answer before it hedges
 * @param latencyDuration how long each latency measurement (hedging, each collector) lasts
 * @param sustainableRate the events per second the burst and the overload are multiples of; 0: the
 *     rate the buffered comparison measured in the same run
 * @param loadInFlight requests the burst's and the overload's sender keeps unanswered at most
 */
record DataPlaneParameters(
    Duration warmup,
    int events,
    int rounds,
    int batch,
    int concurrency,
    Duration burstDuration,
    int burstFactor,
    double burstDrainShare,
    Duration overloadDuration,
    int overloadFactor,
    double delayShare,
    Duration delayMin,
    Duration delayMax,
    Duration hedgeDelay,
    Duration latencyDuration,
    long sustainableRate,
    int loadInFlight) {}
