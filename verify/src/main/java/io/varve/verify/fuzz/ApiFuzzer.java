package io.varve.verify.fuzz;

import java.io.PrintStream;
import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fuzz run against a running server: draws {@code requests} requests from a {@link FuzzPlan}
 * seeded with {@code seed}, sends them one after the other, then checks that no answer was a 5xx
 * (or its gRPC equivalent), no connection was dropped, the server is healthy, and the stored data
 * match what was acknowledged ({@link Readback}).
 */
public final class ApiFuzzer {

  /** The most streams a run may have. */
  public static final int MAX_STREAMS = 16;

  /**
   * What a run is given.
   *
   * @param streams how many streams send the requests at the same time, each with its own
   *     namespaces, seed and store model ({@link #stream}); 1 sends them one after the other
   */
  public record Settings(
      URI server,
      long seed,
      int requests,
      boolean grpc,
      String prefix,
      Instant baseTime,
      int streams) {

    public Settings {
      if (streams < 1 || streams > MAX_STREAMS) {
        throw new IllegalArgumentException(
            "streams: " + streams + " (expected 1 to " + MAX_STREAMS + ")");
      }
      if (requests < 0) {
        throw new IllegalArgumentException("requests: " + requests + " (expected 0 or more)");
      }
    }

    /** A prefix and base time for a new run: namespaces unique to it, times around now. */
    public static Settings fresh(URI server, long seed, int requests, boolean grpc, int streams) {
      String prefix =
          "fz" + Long.toString(System.currentTimeMillis() / 1000 % 1_000_000_000L, 36) + "_";
      return new Settings(
          server,
          seed,
          requests,
          grpc,
          prefix,
          Instant.now().truncatedTo(ChronoUnit.SECONDS),
          streams);
    }

    /**
     * Stream {@code k} (from 0) of a run as a run of one stream: seed {@code seed + k}, namespaces
     * prefixed {@code prefix + k + "_"}, and its share of the requests (the first streams take one
     * more when they do not divide evenly). A run of one stream is its own stream 0, unchanged.
     */
    public Settings stream(int k) {
      if (k < 0 || k >= streams) {
        throw new IllegalArgumentException(
            "stream: " + k + " (expected 0 to " + (streams - 1) + ")");
      }
      if (streams == 1) {
        return this;
      }
      int share = requests / streams + (k < requests % streams ? 1 : 0);
      return new Settings(server, seed + k, share, grpc, prefix + k + "_", baseTime, 1);
    }
  }

  /**
   * One request that failed a check, with enough to send it again: the settings of its stream
   * (seed, prefix, base time) and its number in that stream.
   */
  public record Failure(Settings stream, int index, FuzzCase request, Outcome outcome) {
    public String describe(int maxChars) {
      return "case "
          + index
          + " of seed "
          + stream.seed()
          + " prefix "
          + stream.prefix()
          + " "
          + request.rpc()
          + " over "
          + request.transport()
          + " ("
          + request.kind()
          + ": "
          + request.description()
          + ") answered "
          + outcome.status()
          + " "
          + Readback.text(outcome)
          + " | request: "
          + request.reproduction(maxChars);
    }

    /** Failures alike enough to be one defect: same RPC, status and start of the answer. */
    String signature() {
      String text = Readback.text(outcome).replaceAll("[0-9]+", "N");
      return request.rpc()
          + " "
          + outcome.status()
          + " "
          + (text.length() > 80 ? text.substring(0, 80) : text);
    }
  }

  /** The result of a run. */
  public record Result(
      Settings settings,
      int sent,
      Map<String, Integer> byStatus,
      Map<String, Integer> byRpc,
      Map<String, Integer> byKind,
      List<Failure> requestFailures,
      List<String> checkFailures,
      String health,
      int rowsChecked,
      int namespacesChecked,
      int itemsChecked,
      long millis) {

    public boolean passed() {
      return requestFailures.isEmpty()
          && checkFailures.isEmpty()
          && health.equals("200")
          && byRpc.size() == FuzzPlan.rpcNames().size();
    }

    public int droppedConnections() {
      return (int) requestFailures.stream().filter(f -> f.outcome().transportFailure()).count();
    }

    public int serverErrors() {
      return requestFailures.size() - droppedConnections();
    }

    /** Distinct failures: the first of each signature, with how many there were. */
    public Map<String, List<Failure>> distinct() {
      Map<String, List<Failure>> groups = new LinkedHashMap<>();
      for (Failure f : requestFailures) {
        groups.computeIfAbsent(f.signature(), k -> new ArrayList<>()).add(f);
      }
      return groups;
    }

    /** The {@code key=value} lines of the result. */
    public List<String> lines() {
      List<String> out = new ArrayList<>();
      out.add("fuzz.seed=" + settings.seed());
      out.add("fuzz.requests=" + sent);
      out.add("fuzz.transports=" + (settings.grpc() ? "json,grpc" : "json"));
      out.add("fuzz.streams=" + settings.streams());
      out.add("fuzz.prefix=" + settings.prefix());
      out.add("fuzz.baseTime=" + settings.baseTime());
      out.add("fuzz.seconds=" + millis / 1000);
      byStatus.forEach((k, v) -> out.add("fuzz.status." + k + "=" + v));
      byRpc.forEach((k, v) -> out.add("fuzz.rpc." + k + "=" + v));
      byKind.forEach((k, v) -> out.add("fuzz.kind." + k + "=" + v));
      out.add("fuzz.serverErrors=" + serverErrors());
      out.add("fuzz.droppedConnections=" + droppedConnections());
      out.add("fuzz.health=" + health);
      out.add("fuzz.readback.rows=" + rowsChecked);
      out.add("fuzz.readback.namespaces=" + namespacesChecked);
      out.add("fuzz.readback.items=" + itemsChecked);
      out.add("fuzz.readback.failures=" + checkFailures.size());
      for (String rpc : FuzzPlan.rpcNames()) {
        if (!byRpc.containsKey(rpc)) {
          out.add("fuzz.notCovered=" + rpc);
        }
      }
      int i = 0;
      for (Map.Entry<String, List<Failure>> e : distinct().entrySet()) {
        out.add(
            "fuzz.failure."
                + (++i)
                + "="
                + e.getValue().size()
                + "x "
                + e.getValue().get(0).describe(1500));
      }
      int j = 0;
      for (String c : checkFailures) {
        if (++j > 50) {
          out.add("fuzz.readback.failure.more=" + (checkFailures.size() - 50));
          break;
        }
        out.add("fuzz.readback.failure." + j + "=" + c);
      }
      out.add(
          "fuzz.failures="
              + (requestFailures.size() + checkFailures.size() + (health.equals("200") ? 0 : 1)));
      out.add("fuzz.result=" + (passed() ? "PASS" : "FAIL"));
      return out;
    }
  }

  private ApiFuzzer() {}

  /** The case a run with these settings sends as its {@code index}-th request (counting from 0). */
  public static FuzzCase caseAt(Settings s, int index) {
    FuzzPlan plan = new FuzzPlan(new FuzzWorld(s.prefix(), s.baseTime()), s.seed(), s.grpc());
    try {
      FuzzCase c = null;
      for (int i = 0; i <= index; i++) {
        c = plan.next();
      }
      return c;
    } finally {
      FuzzPlan.finishSession();
    }
  }

  /**
   * A request of one service to a namespace of the other that was not refused with a 4xx (a 5xx is
   * counted as a server error anyway).
   */
  private static boolean crossServiceTaken(FuzzCase c, Outcome o) {
    return c.description().startsWith(KvSequences.CROSS_SERVICE) && o.accepted();
  }

  /**
   * Runs the fuzz, its streams at the same time (one thread each), then {@code GET /health} once
   * they are all done; progress goes to {@code progress}.
   */
  public static Result run(Settings s, PrintStream progress) {
    long start = System.nanoTime();
    List<Result> parts = new ArrayList<>();
    if (s.streams() == 1) {
      parts.add(runStream(s, progress, "fuzz"));
    } else {
      ExecutorService threads = Executors.newFixedThreadPool(s.streams());
      try {
        List<Future<Result>> futures = new ArrayList<>();
        for (int k = 0; k < s.streams(); k++) {
          Settings stream = s.stream(k);
          String label = "fuzz[" + k + "]";
          futures.add(threads.submit(() -> runStream(stream, progress, label)));
        }
        for (Future<Result> f : futures) {
          parts.add(f.get());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("fuzz run interrupted", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("a fuzz stream failed: " + e.getCause(), e.getCause());
      } finally {
        threads.shutdownNow();
      }
    }
    String health;
    try (ApiClient client = new ApiClient(s.server())) {
      health = client.get("/health").status();
    }
    Map<String, Integer> byStatus = new TreeMap<>();
    Map<String, Integer> byRpc = new TreeMap<>();
    Map<String, Integer> byKind = new TreeMap<>();
    List<Failure> failures = new ArrayList<>();
    List<String> checks = new ArrayList<>();
    int sent = 0;
    int rows = 0;
    int namespaces = 0;
    int items = 0;
    for (Result p : parts) {
      sent += p.sent();
      p.byStatus().forEach((k, v) -> byStatus.merge(k, v, Integer::sum));
      p.byRpc().forEach((k, v) -> byRpc.merge(k, v, Integer::sum));
      p.byKind().forEach((k, v) -> byKind.merge(k, v, Integer::sum));
      failures.addAll(p.requestFailures());
      p.checkFailures()
          .forEach(c -> checks.add(s.streams() == 1 ? c : p.settings().prefix() + ": " + c));
      rows += p.rowsChecked();
      namespaces += p.namespacesChecked();
      items += p.itemsChecked();
    }
    return new Result(
        s,
        sent,
        byStatus,
        byRpc,
        byKind,
        failures,
        checks,
        health,
        rows,
        namespaces,
        items,
        (System.nanoTime() - start) / 1_000_000L);
  }

  /** One stream of a run, with its own world, plan, model and client; its health is left empty. */
  private static Result runStream(Settings s, PrintStream progress, String label) {
    long start = System.nanoTime();
    FuzzWorld world = new FuzzWorld(s.prefix(), s.baseTime());
    FuzzPlan plan = new FuzzPlan(world, s.seed(), s.grpc(), Instant::now);
    StoreModel model = new StoreModel();
    Map<String, Integer> byStatus = new TreeMap<>();
    Map<String, Integer> byRpc = new TreeMap<>();
    Map<String, Integer> byKind = new TreeMap<>();
    Map<String, Long> millisByRpc = new TreeMap<>();
    List<Failure> failures = new ArrayList<>();
    List<String> checks = new ArrayList<>();
    PageTokens pageTokens = new PageTokens();
    try (ApiClient client = new ApiClient(s.server())) {
      try {
        for (int i = 0; i < s.requests(); i++) {
          FuzzCase c = pageTokens.fill(plan.next());
          long sent = System.nanoTime();
          Outcome o = client.send(c);
          millisByRpc.merge(c.rpc(), (System.nanoTime() - sent) / 1_000_000L, Long::sum);
          byStatus.merge(c.transport().name().toLowerCase() + "." + o.status(), 1, Integer::sum);
          byRpc.merge(c.rpc(), 1, Integer::sum);
          byKind.merge(c.kind().name().toLowerCase(), 1, Integer::sum);
          if (o.serverFault() || crossServiceTaken(c, o)) {
            Failure failure = new Failure(s, i, c, o);
            failures.add(failure);
            progress.println(label + ": case " + i + " failed: " + failure.describe(300));
          }
          model.record(i, c, o);
          pageTokens.remember(c, o);
          if ((i + 1) % 1000 == 0) {
            progress.println(
                label
                    + ": "
                    + (i + 1)
                    + "/"
                    + s.requests()
                    + " requests, "
                    + failures.size()
                    + " failures, "
                    + (System.nanoTime() - start) / 1_000_000_000L
                    + " s");
          }
        }
      } finally {
        FuzzPlan.finishSession();
      }
      millisByRpc.forEach(
          (rpc, ms) -> progress.println(label + ": " + rpc + " took " + ms + " ms in all"));
      long readbackStart = System.nanoTime();
      Readback readback = new Readback(client, model, checks::add);
      readback.run(world.namespaces(), java.util.Set.of(world.kvDescNamespace()));
      progress.println(
          label
              + ": read back "
              + readback.rowsChecked
              + " rows and "
              + readback.itemsChecked
              + " items in "
              + readback.reads
              + " reads, "
              + (System.nanoTime() - readbackStart) / 1_000_000L
              + " ms");
      return new Result(
          s,
          s.requests(),
          byStatus,
          byRpc,
          byKind,
          failures,
          checks,
          "",
          readback.rowsChecked,
          readback.namespacesChecked,
          readback.itemsChecked,
          (System.nanoTime() - start) / 1_000_000L);
    }
  }
}
