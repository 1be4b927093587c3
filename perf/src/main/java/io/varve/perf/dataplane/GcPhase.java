package io.varve.perf.dataplane;

import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.VarveClient;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Interleaved;
import io.varve.perf.ts.EventGenerator;
import java.net.URI;
import java.util.List;

/**
 * Garbage collectors: p99 of a durable write ({@code WriteEventRecordsSync} of {@code --batch}
 * events) and of the probe read, taking turns ({@link Interleaved}), on a server started with G1
 * and then on one started with ZGC (generational where the JDK has it), each a {@link VarveServer}
 * of the run's own ({@code .varve/perf-dataplane-gc-<collector>/}) stopped before the next starts.
 * The run's other servers stay up, idle.
 */
final class GcPhase {

  static final List<String> COLLECTORS = List.of("g1", "zgc");

  private final DataPlaneParameters parameters;
  private final EventGenerator events;

  GcPhase(DataPlaneParameters parameters, EventGenerator events) {
    this.parameters = parameters;
    this.events = events;
  }

  /**
   * The JVM options of {@code collector} on this JDK, whose {@code java} runs the servers: ZGC is
   * generational where the JDK has it (21+).
   */
  static List<String> jvmOptions(String collector) {
    return switch (collector) {
      case "g1" -> List.of("-XX:+UseG1GC");
      case "zgc" ->
          Runtime.version().feature() >= 21
              ? List.of("-XX:+UseZGC", "-XX:+ZGenerational")
              : List.of("-XX:+UseZGC");
      default -> throw new IllegalArgumentException("collector: " + collector);
    };
  }

  void run(Figures out, Environment environment, String configuration) throws Exception {
    for (String collector : COLLECTORS) {
      VarveServer server =
          VarveServer.start(
              environment,
              "perf-dataplane-gc-" + collector,
              configuration,
              DataPlaneBenchmark.SERVER_JVM.withOptions(jvmOptions(collector)));
      try (VarveClient client =
          VarveClient.builder().endpoint(URI.create(server.apiAddress())).build()) {
        environment.progress(collector + ": writes and reads");
        long[] written = {0};
        Interleaved.Result result =
            Interleaved.run(
                parameters.warmup(),
                parameters.latencyDuration(),
                List.of(
                    () -> {
                      VarveClient.join(
                          client
                              .timeSeries()
                              .writeEventRecordsSync(
                                  WriteEventRecordsRequest.newBuilder()
                                      .setNamespace(DataPlaneBenchmark.NAMESPACE)
                                      .addAllEvents(
                                          events.batch(
                                              "gc-" + collector + "-",
                                              written[0],
                                              parameters.batch()))
                                      .build()));
                      written[0] += parameters.batch();
                    },
                    () -> ProbeSeries.read(client.timeSeries())));
        String prefix = "gc." + collector;
        out.put(prefix + ".flags", String.join(" ", jvmOptions(collector)));
        out.put(prefix + ".rounds", result.rounds());
        out.latency(prefix + ".write", result.micros().get(0));
        out.latency(prefix + ".read", result.micros().get(1));
        out.put(prefix + ".rss_mib", Rss.mib(Rss.bytes(server.pid())));
      } finally {
        server.stop();
      }
    }
  }
}
