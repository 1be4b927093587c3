package io.varve.verify.fuzz;

import io.varve.command.ExitStatus;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code varve verify fuzz}: fuzzes the HTTP/JSON (and gRPC) API of a running server with generated
 * requests, then checks answers, health and stored data. Exits with {@code COMPLETED_WITH_ERRORS}
 * on any failure, {@code ABORTED_FATAL_ERROR} when the server does not answer at all before the
 * first request.
 */
@Command(
    name = "fuzz",
    mixinStandardHelpOptions = true,
    description = {
      "Fuzz the API of a running server: valid, mutated, oversized and garbage requests of every RPC,",
      "then check: no 5xx, no dropped connection, /health 200, stored data as acknowledged.",
      "Prints key=value results; exits 1 on any failure, 4 when the server cannot be reached.",
      "The same --seed, --requests, --prefix and --base-time send the same requests."
    })
public final class FuzzCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--server",
      required = true,
      description = "Base URL of the server, e.g. http://127.0.0.1:8080.")
  URI server;

  @Option(
      names = "--grpc",
      description = "Send requests over gRPC too (each request over one of the two).")
  boolean grpc;

  @Option(names = "--seed", description = "Seed of the generator (default: drawn, and printed).")
  Long seed;

  @Option(
      names = "--requests",
      defaultValue = "10000",
      description = "Number of requests (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--streams",
      defaultValue = "1",
      description = {
        "Streams sending requests at the same time, each with its own namespaces (prefix + k + _),",
        "seed (seed + k) and share of the requests (default ${DEFAULT-VALUE}, at most 16)."
      })
  int streams;

  @Option(
      names = "--prefix",
      description = "Prefix of the namespaces the run creates (default: new for each run).")
  String prefix;

  @Option(
      names = "--base-time",
      description = "Time the generated event times are relative to (default: now).")
  Instant baseTime;

  @Option(
      names = "--show-case",
      description = "Print request number N of the run (counting from 0) and exit.")
  Integer showCase;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (streams < 1 || streams > ApiFuzzer.MAX_STREAMS) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--streams: " + streams + " (expected 1 to " + ApiFuzzer.MAX_STREAMS + ")");
    }
    if (requests < 0) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--requests: " + requests + " (expected 0 or more)");
    }
    long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
    ApiFuzzer.Settings fresh = ApiFuzzer.Settings.fresh(server, s, requests, grpc, streams);
    ApiFuzzer.Settings settings =
        new ApiFuzzer.Settings(
            server,
            s,
            requests,
            grpc,
            prefix != null ? prefix : fresh.prefix(),
            baseTime != null ? baseTime : fresh.baseTime(),
            streams);
    if (showCase != null) {
      FuzzCase c = ApiFuzzer.caseAt(settings, showCase);
      out.println("fuzz.case=" + showCase);
      out.println("fuzz.case.rpc=" + c.rpc());
      out.println("fuzz.case.kind=" + c.kind() + ": " + c.description());
      out.println("fuzz.case.request=" + c.reproduction(Integer.MAX_VALUE));
      out.flush();
      return ExitStatus.OK.code();
    }
    // Every request would fail alike: say so once, as an error of the environment rather than of
    // the server.
    try (ApiClient probe = new ApiClient(server)) {
      Outcome health = probe.get("/health");
      if (health.transportFailure()) {
        throw new IllegalStateException(
            "cannot reach the server at " + server + ": " + health.error());
      }
    }
    out.println("fuzz.seed=" + s);
    out.println("fuzz.prefix=" + settings.prefix());
    out.println("fuzz.baseTime=" + settings.baseTime());
    out.flush();
    ApiFuzzer.Result result = ApiFuzzer.run(settings, System.err);
    result.lines().forEach(out::println);
    out.flush();
    return (result.passed() ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }
}
