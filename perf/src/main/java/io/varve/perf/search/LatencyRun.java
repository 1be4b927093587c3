package io.varve.perf.search;

import io.varve.perf.measure.Figures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Runs one kind of request from {@code clients} threads, each sending its next request as soon as
 * the previous one answered (closed loop): {@code warmup} requests first, not recorded, then {@code
 * requests} recorded ones. Returns the latencies in microseconds and the measured rate.
 */
final class LatencyRun {

  /**
   * One request, with its checks; {@code i} counts from {@code -warmup}: negative ones are the
   * warm-up.
   */
  interface Request {
    void run(int i) throws Exception;
  }

  record Result(Histogram micros, double requestsPerSecond) {

    /**
     * Prints {@code <name>_p50_ms}, {@code _p99_ms}, {@code _max_ms} and {@code _requests_per_s}.
     */
    void print(Figures out, String name) {
      out.put(name + "_p50_ms", micros.getValueAtPercentile(50) / 1000.0);
      out.put(name + "_p99_ms", micros.getValueAtPercentile(99) / 1000.0);
      out.put(name + "_max_ms", micros.getMaxValue() / 1000.0);
      out.put(name + "_requests_per_s", requestsPerSecond);
    }
  }

  private LatencyRun() {}

  static Result run(int clients, int warmup, int requests, Request request) throws Exception {
    AtomicInteger next = new AtomicInteger(-warmup);
    AtomicLong measuredStart = new AtomicLong();
    List<Histogram> histograms = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients, daemon("perf-search-client"));
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        Histogram micros = new Histogram(600_000_000L, 3);
        histograms.add(micros);
        running.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                    long t0 = System.nanoTime();
                    if (i == 0) {
                      measuredStart.set(t0);
                    }
                    request.run(i);
                    if (i >= 0) {
                      micros.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          for (Future<?> other : running) {
            other.cancel(true);
          }
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - measuredStart.get()) / 1e9;
    Histogram all = new Histogram(600_000_000L, 3);
    histograms.forEach(all::add);
    return new Result(all, requests / seconds);
  }

  /** Threads of this name that do not keep the JVM alive. */
  static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
