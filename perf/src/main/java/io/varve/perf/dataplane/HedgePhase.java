package io.varve.perf.dataplane;

import io.varve.client.CallSettings;
import io.varve.client.ClientCounters;
import io.varve.client.VarveClient;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.Interleaved;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * {@code hedge.p99.ratio}: p99 of the probe read with hedging ÷ without, from a client of two
 * servers on the same Cassandra, the second behind a {@link DelayProxy} that delays a share of the
 * reads it forwards. Two clients of the same two endpoints take turns ({@link Interleaved}), one
 * hedging after {@code --hedge-delay-ms}, one never; each sends its calls to the endpoints in turn,
 * so half of each one's first requests cross the proxy. Both have a deadline of 10 s and no
 * retries: the figures are those of hedging alone. Every figure, the counts of hedges and of the
 * proxy's reads included, is that of the measured rounds, after the warm-up ({@value
 * #WARMUP_CALLERS} callers at once). The second server is started at the beginning of the run, so
 * that the phase does not measure a JVM still compiling its start.
 */
final class HedgePhase {

  private static final Duration DEADLINE = Duration.ofSeconds(10);

  /**
   * Callers of the warm-up's reads at once: four times the reads of the measured rounds' one
   * caller, so that both servers' read paths are compiled before they are measured.
   */
  static final int WARMUP_CALLERS = 4;

  private final DataPlaneParameters parameters;

  HedgePhase(DataPlaneParameters parameters) {
    this.parameters = parameters;
  }

  void run(Figures out, String direct, InetSocketAddress slowed, Duration warmup) throws Exception {
    DelayChoice delays =
        new DelayChoice(parameters.delayShare(), parameters.delayMin(), parameters.delayMax());
    try (DelayProxy proxy = DelayProxy.start(slowed, delays);
        VarveClient hedged =
            client(
                direct,
                proxy,
                CallSettings.defaults()
                    .withDeadline(DEADLINE)
                    .withHedgeDelay(parameters.hedgeDelay()));
        VarveClient plain =
            client(
                direct, proxy, CallSettings.defaults().withDeadline(DEADLINE).withoutHedging())) {
      List<Interleaved.Request> reads =
          List.of(
              () -> ProbeSeries.read(hedged.timeSeries()),
              () -> ProbeSeries.read(plain.timeSeries()));
      Interleaved.warmUp(warmup, reads, WARMUP_CALLERS);
      // the counts of the measured rounds only: the warm-up's hedges are not in the figures
      ClientCounters before = hedged.counters();
      long proxyReads = proxy.reads();
      long proxyDelayed = proxy.delayed();
      Interleaved.Result result =
          Interleaved.run(Duration.ZERO, parameters.latencyDuration(), reads);
      ClientCounters measured = hedged.counters().minus(before);
      Histogram withHedging = result.micros().get(0);
      Histogram without = result.micros().get(1);
      out.put("hedge.rounds", result.rounds());
      out.put("hedge.proxy.reads", proxy.reads() - proxyReads);
      out.put("hedge.proxy.delayed", proxy.delayed() - proxyDelayed);
      out.put("hedge.hedges_sent", measured.hedgesSent());
      out.put("hedge.hedges_won", measured.hedgesWon());
      out.latency("hedge.hedged", withHedging);
      out.latency("hedge.unhedged", without);
      out.put(
          "hedge.p99.ratio",
          Goals.ratio(withHedging.getValueAtPercentile(99), without.getValueAtPercentile(99)));
    }
  }

  private static VarveClient client(String direct, DelayProxy proxy, CallSettings settings) {
    return VarveClient.builder()
        .endpoints(direct, proxy.hostPort())
        .callSettings(settings)
        .retries(0, Duration.ofMillis(50), Duration.ofSeconds(2))
        .build();
  }
}
