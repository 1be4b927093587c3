package io.varve.verify.fuzz;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code varve verify fuzz}: fuzzes the HTTP/JSON (and gRPC) API of a running server with
 * generated requests, then checks answers, health and stored data.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true,
    description = {"Fuzz the API of a running server: valid, mutated, oversized and garbage requests of every RPC,",
        "then check: no 5xx, no dropped connection, /health 200, stored data as acknowledged.",
        "Prints key=value results; exits 1 on any failure. The same --seed, --requests, --prefix and",
        "--base-time send the same requests."})
public final class FuzzCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--server", required = true, description = "Base URL of the server, e.g. http://127.0.0.1:8080.")
  URI server;

  @Option(names = "--grpc", description = "Send requests over gRPC too (each request over one of the two).")
  boolean grpc;

  @Option(names = "--seed", description = "Seed of the generator (default: drawn, and printed).")
  Long seed;

  @Option(names = "--requests", defaultValue = "10000", description = "Number of requests (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--prefix", description = "Prefix of the namespaces the run creates (default: new for each run).")
  String prefix;

  @Option(names = "--base-time", description = "Time the generated event times are relative to (default: now).")
  Instant baseTime;

  @Option(names = "--show-case", description = "Print request number N of the run (counting from 0) and exit.")
  Integer showCase;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
    ApiFuzzer.Settings fresh = ApiFuzzer.Settings.fresh(server, s, requests, grpc);
    ApiFuzzer.Settings settings = new ApiFuzzer.Settings(server, s, requests, grpc,
        prefix != null ? prefix : fresh.prefix(), baseTime != null ? baseTime : fresh.baseTime());
    if (showCase != null) {
      FuzzCase c = ApiFuzzer.caseAt(settings, showCase);
      out.println("fuzz.case=" + showCase);
      out.println("fuzz.case.rpc=" + c.rpc());
      out.println("fuzz.case.kind=" + c.kind() + ": " + c.description());
      out.println("fuzz.case.request=" + c.reproduction(Integer.MAX_VALUE));
      out.flush();
      return 0;
    }
    out.println("fuzz.seed=" + s);
    out.println("fuzz.prefix=" + settings.prefix());
    out.println("fuzz.baseTime=" + settings.baseTime());
    out.flush();
    ApiFuzzer.Result result = ApiFuzzer.run(settings, System.err);
    result.lines().forEach(out::println);
    out.flush();
    return result.passed() ? 0 : 1;
  }
}
