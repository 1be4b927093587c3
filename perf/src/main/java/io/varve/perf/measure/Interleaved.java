package io.varve.perf.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;

/**
 * Latencies of several kinds of request measured side by side: one client sends them in turn (a
 * round is one of each), each as soon as the previous one answered, so every kind sees the same
 * machine at the same moments. A closed loop sends at no fixed rate, so no correction for
 * coordinated omission applies: each latency is that of a request sent to an idle client.
 */
public final class Interleaved {

  /** Fewest measured rounds, whatever the duration: a p99 needs 100 values to mean anything. */
  public static final int MIN_ROUNDS = 100;

  /** One request, with the checks of its answer (a wrong answer throws and stops the run). */
  public interface Request {
    void run() throws Exception;
  }

  /**
   * The latencies in microseconds, one histogram per request kind in the order given, and the
   * rounds measured.
   */
  public record Result(List<Histogram> micros, long rounds) {}

  private Interleaved() {}

  /**
   * Sends rounds for {@code warmup}, recording nothing: for a caller that reads its own counts
   * between the warm-up and {@link #run} with no warm-up of its own.
   */
  public static void warmUp(Duration warmup, List<Request> requests) throws Exception {
    long warmupEnd = System.nanoTime() + warmup.toNanos();
    while (System.nanoTime() < warmupEnd) {
      for (Request r : requests) {
        r.run();
      }
    }
  }

  /**
   * Sends rounds for {@code warmup} from {@code callers} threads at once, recording nothing: a JVM
   * that serves several callers compiles its paths sooner than one that serves one.
   */
  public static void warmUp(Duration warmup, List<Request> requests, int callers) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(callers);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        running.add(
            threads.submit(
                () -> {
                  warmUp(warmup, requests);
                  return null;
                }));
      }
      for (Future<?> caller : running) {
        try {
          caller.get();
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * Sends rounds for {@code warmup} (not recorded), then for {@code measured} and at least {@link
   * #MIN_ROUNDS} rounds.
   */
  public static Result run(Duration warmup, Duration measured, List<Request> requests)
      throws Exception {
    warmUp(warmup, requests);
    List<Histogram> micros = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      micros.add(new Histogram(600_000_000L, 3));
    }
    long end = System.nanoTime() + measured.toNanos();
    long rounds = 0;
    while (rounds < MIN_ROUNDS || System.nanoTime() < end) {
      for (int i = 0; i < requests.size(); i++) {
        long t0 = System.nanoTime();
        requests.get(i).run();
        micros.get(i).recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
      }
      rounds++;
    }
    return new Result(micros, rounds);
  }
}
