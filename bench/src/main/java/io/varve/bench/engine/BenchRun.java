package io.varve.bench.engine;

import io.varve.bench.binding.cql.CqlNodeLoad;
import io.varve.bench.binding.varve.VarveServerLoad;
import io.varve.bench.load.LoadMeter;
import io.varve.bench.load.LoadSource;
import io.varve.bench.load.LoaderCpu;
import io.varve.bench.result.HistogramCodec;
import io.varve.bench.result.OperationResult;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.htrace.core.HTraceConfiguration;
import org.apache.htrace.core.Tracer;
import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.DBWrapper;
import site.ycsb.StatusThread;
import site.ycsb.TerminatorThread;
import site.ycsb.Utils;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * Runs one YCSB phase with YCSB's own engine (workload, client threads, throttle, measurements,
 * status thread and text exporter) and records it for the result file as well.
 *
 * <p>YCSB's client threads pace themselves when {@code target} is set: operation n of a thread is
 * due at {@code start + n / rate}, whether or not the previous one has returned. The latency of
 * each operation is measured from that due time (intended) and from the time it was really sent
 * (service), so a stalled database shows up in the percentiles instead of slowing the load down and
 * hiding (coordinated omission).
 */
public final class BenchRun {
  private final BenchSpec spec;
  private final PrintStream out;
  private final PrintStream err;

  public BenchRun(BenchSpec spec, PrintStream out, PrintStream err) {
    this.spec = spec;
    this.out = out;
    this.err = err;
  }

  /** What a phase runs: its checked properties. */
  private record Plan(
      int threads, long target, long maxExecutionSeconds, long warmupMs, boolean load, long ops) {}

  /** The phase's properties, checked, with each error naming the property. */
  private Plan plan(Properties props) {
    int threadCount = (int) spec.longProperty("threadcount", 1);
    long target = spec.longProperty("target", 0);
    long maxExecutionSeconds = spec.longProperty("maxexecutiontime", 0);
    long warmupMs = spec.longProperty("warmuptime", 0) * 1000;
    boolean load = spec.phase() == BenchSpec.Phase.LOAD;
    props.setProperty("dotransactions", String.valueOf(!load));
    long opCount =
        load
            ? spec.longProperty("insertcount", spec.longProperty("recordcount", 0))
            : spec.longProperty("operationcount", 0);
    if (threadCount < 1) {
      throw new BenchInputException(
          "threadcount=" + threadCount + " is not valid: expected at least 1");
    }
    if (target < 0) {
      throw new BenchInputException(
          "target=" + target + " is not valid: expected 0 (no limit) or a positive rate");
    }
    if (warmupMs < 0) {
      throw new BenchInputException(
          "warmuptime=" + warmupMs / 1000 + " is not valid: expected 0 or more seconds");
    }
    if (opCount > Integer.MAX_VALUE) {
      throw new BenchInputException(
          "operation count " + opCount + " is too large: at most " + Integer.MAX_VALUE);
    }
    if (opCount == 0 && maxExecutionSeconds == 0) {
      throw new BenchInputException(
          (load ? "recordcount" : "operationcount")
              + " is 0 and maxexecutiontime is not set: the run would never end");
    }
    if (opCount > 0 && threadCount > opCount) {
      threadCount = (int) opCount;
    }
    return new Plan(threadCount, target, maxExecutionSeconds, warmupMs, load, opCount);
  }

  /**
   * YCSB's client threads, each with its own binding wrapped to record every operation, its share
   * of the operations and of the target rate.
   */
  private List<ClientThread> clients(
      Plan plan,
      Properties props,
      Workload workload,
      Tracer tracer,
      OperationRecorder recorder,
      InitFailures initFailures,
      CountDownLatch complete,
      DB[] first) {
    double targetPerThreadPerMs =
        plan.target() > 0 ? plan.target() / (double) plan.threads() / 1000.0 : -1;
    List<ClientThread> clients = new ArrayList<>();
    for (int id = 0; id < plan.threads(); id++) {
      DB binding = Bindings.newInstance(spec.binding());
      binding.setProperties(props);
      first[0] = first[0] == null ? binding : first[0];
      DB db = new DBWrapper(new RecordingDB(binding, recorder, initFailures), tracer);
      db.setProperties(props);
      int threadOps =
          (int) (plan.ops() / plan.threads() + (id < plan.ops() % plan.threads() ? 1 : 0));
      ClientThread client =
          new ClientThread(
              db, !plan.load(), workload, props, threadOps, targetPerThreadPerMs, complete);
      client.setThreadId(id);
      client.setThreadCount(plan.threads());
      clients.add(client);
    }
    return clients;
  }

  /** YCSB's status thread, when {@code status=true}. */
  private StatusThread statusThread(
      Properties props, CountDownLatch complete, List<ClientThread> clients) {
    if (!Boolean.parseBoolean(props.getProperty("status", "false"))) {
      return null;
    }
    return new StatusThread(
        complete,
        clients,
        spec.label(),
        "timeseries".equals(props.getProperty(Measurements.MEASUREMENT_TYPE_PROPERTY)),
        (int) spec.longProperty("status.interval", 10),
        "true".equals(props.getProperty(Measurements.MEASUREMENT_TRACK_JVM_PROPERTY)));
  }

  /** Waits for every client thread; the operations they did. */
  private static long awaitClients(Map<Thread, ClientThread> threads) {
    long opsDone = 0;
    for (Map.Entry<Thread, ClientThread> entry : threads.entrySet()) {
      try {
        entry.getKey().join();
        opsDone += entry.getValue().getOpsDone();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new BenchException("interrupted while waiting for the client threads", e);
      }
    }
    return opsDone;
  }

  /** Stops the per-second sampler once the clients are done. */
  private static void stopSampler(ScheduledExecutorService sampler) {
    sampler.shutdownNow();
    try {
      sampler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the threads that watched the clients: the terminator and the status thread. */
  private static void stopWatchers(TerminatorThread terminator, StatusThread status) {
    if (terminator != null) {
      terminator.interrupt();
    }
    if (status != null) {
      status.interrupt();
      try {
        status.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Runs the phase to the end and returns what it measured. */
  public RunResult run() {
    Properties props = spec.properties();
    Plan plan = plan(props);
    resetMeasurements(props);
    Workload workload = newWorkload(props);
    Tracer tracer = new Tracer.Builder("varve-bench").conf(HTraceConfiguration.EMPTY).build();
    OperationRecorder recorder = new OperationRecorder();
    InitFailures initFailures = new InitFailures();
    CountDownLatch complete = new CountDownLatch(plan.threads());
    DB[] first = new DB[1];
    List<ClientThread> clients =
        clients(plan, props, workload, tracer, recorder, initFailures, complete, first);
    try {
      CqlNodeLoad.coldStart(spec.binding(), props, out);
    } catch (DBException e) {
      throw new BenchInputException(e.getMessage(), e);
    }
    LoadMeter load = new LoadMeter(loadSources(props, first[0]), err);

    List<SecondResult> timeline = Collections.synchronizedList(new ArrayList<>());
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-sampler");
              t.setDaemon(true);
              return t;
            });
    StatusThread status = statusThread(props, complete, clients);

    long startedAtMs = System.currentTimeMillis();
    long startNs = System.nanoTime();
    long warmupMs = plan.warmupMs();
    load.start();
    Sampler samples =
        new Sampler(
            recorder, load, timeline, warmupMs > 0 ? startedAtMs + warmupMs : Long.MIN_VALUE);
    // Samples at wall-clock second boundaries, so the seconds of several loaders line up when
    // merged.
    long firstSample = 1000 - System.currentTimeMillis() % 1000;
    sampler.scheduleAtFixedRate(
        () -> samples.take(false), firstSample, 1000, TimeUnit.MILLISECONDS);
    if (status != null) {
      status.start();
    }
    Map<Thread, ClientThread> threads = new HashMap<>();
    for (ClientThread client : clients) {
      Thread thread = new Thread(client, "bench-client-" + threads.size());
      threads.put(thread, client);
      thread.start();
    }
    TerminatorThread terminator = null;
    if (plan.maxExecutionSeconds() > 0) {
      terminator = new TerminatorThread(plan.maxExecutionSeconds(), threads.keySet(), workload);
      terminator.start();
    }
    long opsDone = awaitClients(threads);
    long durationNs = System.nanoTime() - startNs;
    stopSampler(sampler);
    samples.take(true);
    // The measured part ends with the last operation, not with the bindings' cleanup (closing a
    // driver session can take a second, which would otherwise lower the throughput).
    long endMs =
        startedAtMs + (recorder.lastEndNs().orElse(System.nanoTime()) - startNs) / 1_000_000;
    stopWatchers(terminator, status);
    load.close();
    try {
      workload.cleanup();
    } catch (WorkloadException e) {
      err.println("workload cleanup failed: " + e.getMessage());
    }
    if (initFailures.any()) {
      throw new BenchException(
          "binding " + spec.binding() + " failed to start: " + initFailures.describe());
    }
    long durationMs = Math.max(1, durationNs / 1_000_000);
    exportYcsbText(props, opsDone, durationMs);
    if (samples.measuredFromMs() < 0) {
      throw new BenchException(
          "the run ended before its warm-up (warmuptime="
              + warmupMs / 1000
              + " s) did: nothing was measured; lengthen the run or shorten the warm-up");
    }
    long measuredFromMs = warmupMs > 0 ? samples.measuredFromMs() : startedAtMs;
    return result(
        props,
        plan.threads(),
        plan.target(),
        measuredFromMs,
        Math.max(1, endMs - measuredFromMs),
        measuredFromMs - startedAtMs,
        recorder,
        timeline,
        load.run());
  }

  private RunResult result(
      Properties props,
      int threads,
      long target,
      long startedAtMs,
      long durationMs,
      long warmupMs,
      OperationRecorder recorder,
      List<SecondResult> timeline,
      Map<String, Double> load) {
    Map<String, OperationResult> operations = new TreeMap<>();
    recorder
        .totals()
        .forEach(
            (name, interval) ->
                operations.put(
                    name,
                    OperationResult.of(
                        interval.intended(), interval.service(), interval.errors())));
    long ok = operations.values().stream().mapToLong(OperationResult::count).sum();
    Map<String, String> properties = new TreeMap<>();
    props.stringPropertyNames().forEach(k -> properties.put(k, props.getProperty(k)));
    Map<String, Long> counters = new TreeMap<>();
    Map<String, Double> figures = new TreeMap<>();
    load.forEach(
        (name, value) -> {
          if (name.startsWith(BindingCounters.PREFIX)) {
            counters.put(name.substring(BindingCounters.PREFIX.length()), Math.round(value));
          } else {
            figures.put(name, value);
          }
        });
    List<SecondResult> seconds = new ArrayList<>();
    synchronized (timeline) {
      for (SecondResult s : timeline) {
        if (!s.operations().isEmpty()) {
          seconds.add(s);
        }
      }
    }
    return new RunResult(
        RunResult.FORMAT,
        spec.label(),
        spec.binding(),
        spec.phase().cliName(),
        props.getProperty("workload"),
        properties,
        threads,
        target,
        1,
        hostName(),
        startedAtMs,
        durationMs,
        ok * 1000.0 / durationMs,
        operations,
        counters,
        seconds,
        warmupMs,
        figures);
  }

  /**
   * What a run samples beside its operations: the loader's CPU, the binding's counters, and the
   * servers' load its properties ask for ({@link io.varve.bench.load.ServerLoadOptions}).
   */
  private List<LoadSource> loadSources(Properties props, DB first) {
    List<LoadSource> sources = new ArrayList<>();
    sources.add(new LoaderCpu());
    if (first instanceof CounterSource counting) {
      sources.add(new BindingCounters(counting));
    }
    try {
      sources.addAll(CqlNodeLoad.sources(spec.binding(), props, err));
      sources.addAll(VarveServerLoad.sources(spec.binding(), props, err));
    } catch (DBException e) {
      sources.forEach(LoadSource::close);
      throw new BenchInputException(e.getMessage(), e);
    }
    return sources;
  }

  /**
   * Takes the per-second samples. A sample covers one wall-clock second; it counts toward the run's
   * totals once that second starts at or after the end of the warm-up.
   */
  private static final class Sampler {
    private final OperationRecorder recorder;
    private final LoadMeter load;
    private final List<SecondResult> timeline;
    private final long warmupEndMs;
    private volatile long measuredFromMs = -1;

    Sampler(
        OperationRecorder recorder, LoadMeter load, List<SecondResult> timeline, long warmupEndMs) {
      this.recorder = recorder;
      this.load = load;
      this.timeline = timeline;
      this.warmupEndMs = warmupEndMs;
    }

    /** The start of the first measured second, or -1 if none was measured yet. */
    long measuredFromMs() {
      return measuredFromMs;
    }

    synchronized void take(boolean last) {
      // A periodic sample is taken just after its second ends; the last sample of a run covers
      // the part of the second the run ended in.
      long now = System.currentTimeMillis();
      long epochSecond = last ? now / 1000 : (now - 500) / 1000;
      boolean measured = epochSecond * 1000 >= warmupEndMs;
      if (measured && measuredFromMs < 0) {
        measuredFromMs = epochSecond * 1000;
      }
      Map<String, OperationRecorder.Interval> sample = recorder.sampleInterval(measured);
      Map<String, SecondResult.Op> ops = new TreeMap<>();
      sample.forEach(
          (name, i) -> {
            if (i.count() > 0 || i.errorCount() > 0) {
              ops.put(
                  name,
                  new SecondResult.Op(
                      i.count(),
                      i.errorCount(),
                      i.intended().getValueAtPercentile(99),
                      i.service().getValueAtPercentile(99),
                      HistogramCodec.encode(i.intended()),
                      HistogramCodec.encode(i.service())));
            }
          });
      timeline.add(new SecondResult(epochSecond, ops, !measured, load.second(measured)));
    }
  }

  /**
   * YCSB's text output, as its own client prints it ({@code [OVERALL], Throughput(ops/sec), ...}).
   */
  private void exportYcsbText(Properties props, long opsDone, long runtimeMs) {
    String exportFile = props.getProperty("exportfile");
    try (OutputStream target =
        exportFile == null ? new NonClosing(out) : new FileOutputStream(exportFile)) {
      MeasurementsExporter exporter = new TextMeasurementsExporter(target);
      exporter.write("OVERALL", "RunTime(ms)", runtimeMs);
      exporter.write("OVERALL", "Throughput(ops/sec)", 1000.0 * opsDone / runtimeMs);
      long gcCount = 0;
      long gcTime = 0;
      for (Map.Entry<String, Long[]> gc : Utils.getGCStatst().entrySet()) {
        exporter.write("TOTAL_GCS_" + gc.getKey(), "Count", gc.getValue()[0]);
        exporter.write("TOTAL_GC_TIME_" + gc.getKey(), "Time(ms)", gc.getValue()[1]);
        exporter.write(
            "TOTAL_GC_TIME_%_" + gc.getKey(), "Time(%)", 100.0 * gc.getValue()[1] / runtimeMs);
        gcCount += gc.getValue()[0];
        gcTime += gc.getValue()[1];
      }
      exporter.write("TOTAL_GCs", "Count", gcCount);
      exporter.write("TOTAL_GC_TIME", "Time(ms)", gcTime);
      exporter.write("TOTAL_GC_TIME_%", "Time(%)", 100.0 * gcTime / runtimeMs);
      Measurements.getMeasurements().exportMeasurements(exporter);
      exporter.close();
    } catch (IOException e) {
      throw new BenchException(
          "cannot write YCSB measurements"
              + (exportFile == null ? "" : " to " + exportFile)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static Workload newWorkload(Properties props) {
    String name = props.getProperty("workload");
    if (name == null || name.isBlank()) {
      throw new BenchInputException(
          "property workload is missing: give a workload file with -P (e.g. -P workloads/workloada)");
    }
    Workload workload;
    try {
      workload = (Workload) Class.forName(name.trim()).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new BenchInputException(
          "property workload="
              + name
              + " is not valid: expected the class name of a site.ycsb.Workload");
    }
    try {
      workload.init(props);
    } catch (WorkloadException | RuntimeException e) {
      throw new BenchInputException(
          "workload " + name + " rejected its properties: " + e.getMessage(), e);
    }
    return workload;
  }

  /**
   * YCSB keeps its measurements in a process-wide singleton; a second run in the same process must
   * start from empty ones.
   */
  private static void resetMeasurements(Properties props) {
    try {
      java.lang.reflect.Field singleton = Measurements.class.getDeclaredField("singleton");
      singleton.setAccessible(true);
      synchronized (Measurements.class) {
        singleton.set(null, null);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot reset YCSB measurements", e);
    }
    Measurements.setProperties(props);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Keeps YCSB's exporter from closing standard output. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
