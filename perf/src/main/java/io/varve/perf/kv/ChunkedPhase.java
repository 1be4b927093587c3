package io.varve.perf.kv;

import com.google.protobuf.UnsafeByteOperations;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.core.kv.KvChunking;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.InFlight;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * {@code chunked.put.ratio} and {@code chunked.get.ratio}: MB/s of values of {@value #VALUE_BYTES}
 * bytes through PutItems and GetItems (which store them in chunks of 1 MiB in the chunk table)
 * against raw CQL writes and reads of the same bytes as rows of {@value #ROW_BYTES} bytes, one
 * partition each as chunks are spread; and against the bare hop ({@link BareHop}) passing the same
 * rows, {@value #ROWS_PER_REQUEST} a request, through a plain stub: {@code
 * chunked.put.varve_to_hop.ratio} and {@code chunked.get.varve_to_hop.ratio}, what Varve itself
 * adds to the least a server in between costs.
 *
 * <p>Puts keep {@value #VALUES_IN_FLIGHT} values in flight on every side; the raw client writes a
 * value's rows {@link KvChunking#DEFAULT}{@code .writeConcurrency()} at a time, the hop's client
 * sends them {@value #ROWS_PER_REQUEST} a request, one request after the other, and the hop writes
 * a request's rows at once (the same rows in flight); the Java client stages a value as its
 * protocol does (docs/key-value.md, "Large values in parts"). Gets read one value after the other:
 * its rows 4 at a time (raw), {@value #ROWS_PER_REQUEST} a request (hop), in parts of 4 MiB side by
 * side (the Java client). Same data stored: each put of a value writes new chunks on the server (a
 * version of their own, the old ones swept later), so each raw or hop put writes new rows too (a
 * generation of their own) rather than overwriting the last ones, which Cassandra would compact
 * away for nothing and read back from several tables. Steady state: every side puts and gets
 * {@value #WARMUP_VALUES} values in turn for {@code --warmup}, not measured (the chunked paths run
 * for the first time in the run, and the JIT compilers of the server and of Cassandra are busy for
 * tens of seconds), then {@value #VALUES} values a side are measured in {@value #SEGMENTS_PER_SIDE}
 * segments each, in the order raw, Varve, hop, hop, Varve, raw, twice (flushes and compactions fall
 * on every side). The CPU of each process is printed per MiB moved. Values are {@value
 * #DISTINCT_VALUES} buffers of random bytes (incompressible); each value read through Varve or the
 * hop is compared byte for byte, each raw row is checked for its size.
 */
final class ChunkedPhase {

  static final int VALUE_BYTES = 16 * 1024 * 1024;
  static final int ROW_BYTES = 1024 * 1024;
  static final int ROWS_PER_VALUE = VALUE_BYTES / ROW_BYTES;

  /** Rows of a request to the hop: 4 MiB, the size of the Java client's parts. */
  static final int ROWS_PER_REQUEST = 4;

  /** Values written and read per side, measured. */
  static final int VALUES = 64;

  /** Measured segments of each side. */
  static final int SEGMENTS_PER_SIDE = 4;

  /** Values written and read per side in each warm-up round, not measured. */
  static final int WARMUP_VALUES = 8;

  /** Values in flight during the puts: 64 MiB, well within the server's admission bound. */
  static final int VALUES_IN_FLIGHT = 4;

  /** Distinct value contents, reused round robin: bounds the benchmark's own heap. */
  static final int DISTINCT_VALUES = 4;

  private static final byte[] KEY = ItemData.key("value", 0);

  private static final List<String> ORDER = List.of("raw", "varve", "hop", "hop", "varve", "raw");

  private final byte[][] contents = new byte[DISTINCT_VALUES][];

  /** The generation of the raw rows each value was last written as. */
  private final Generations raw = new Generations();

  /** The generation of the hop's rows each value was last written as. */
  private final Generations hop = new Generations();

  ChunkedPhase(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < DISTINCT_VALUES; i++) {
      contents[i] = new byte[VALUE_BYTES];
      random.nextBytes(contents[i]);
    }
  }

  void run(
      Figures out,
      KvApi api,
      RawItems rawRows,
      BareHop.Process hopProcess,
      CpuMeter cpu,
      Duration warmup)
      throws Exception {
    Map<String, Segment> puts = new LinkedHashMap<>();
    puts.put("raw", (from, to) -> raw.put(from, to, (v, g) -> rawPutValue(rawRows, v, g)));
    puts.put(
        "varve",
        (from, to) -> InFlight.send(VALUES_IN_FLIGHT, values(from, to), v -> putValue(api, v)));
    puts.put("hop", (from, to) -> hop.put(from, to, (v, g) -> hopPutValue(hopProcess, v, g)));
    Map<String, Segment> gets = new LinkedHashMap<>();
    gets.put("raw", (from, to) -> InFlight.send(1, values(from, to), v -> rawGetValue(rawRows, v)));
    gets.put("varve", (from, to) -> InFlight.send(1, values(from, to), v -> varveGetValue(api, v)));
    gets.put(
        "hop", (from, to) -> InFlight.send(1, values(from, to), v -> hopGetValue(hopProcess, v)));
    // warm-up: the chunked paths of every side run here for the first time in the run
    long warmupEnd = System.nanoTime() + warmup.toNanos();
    do {
      for (Map<String, Segment> op : List.of(puts, gets)) {
        for (Segment side : op.values()) {
          side.send(0, WARMUP_VALUES);
        }
      }
    } while (System.nanoTime() < warmupEnd);
    double megabytes = (double) VALUES * VALUE_BYTES / 1e6;
    double mebibytes = (double) VALUES * VALUE_BYTES / ROW_BYTES;
    out.put("chunked.value_bytes", VALUE_BYTES);
    out.put("chunked.values", VALUES);
    // puts first: the gets read what they wrote
    for (var op : List.of(Map.entry("put", puts), Map.entry("get", gets))) {
      String name = op.getKey();
      Map<String, Map<String, Duration>> cpuBySide = new LinkedHashMap<>();
      Map<String, Double> seconds = inSegments(op.getValue(), cpu, cpuBySide);
      seconds.forEach(
          (side, s) -> out.put("chunked." + side + "." + name + "_mb_per_s", megabytes / s));
      out.put("chunked." + name + ".ratio", Goals.ratio(seconds.get("raw"), seconds.get("varve")));
      out.put(
          "chunked." + name + ".hop.ratio", Goals.ratio(seconds.get("raw"), seconds.get("hop")));
      out.put(
          "chunked." + name + ".varve_to_hop.ratio",
          Goals.ratio(seconds.get("hop"), seconds.get("varve")));
      cpuBySide.forEach(
          (side, byProcess) ->
              byProcess.forEach(
                  (process, d) -> {
                    if (shown(side, process)) {
                      out.put(
                          "chunked." + name + "." + side + ".cpu_ms_per_mib." + process,
                          d.toMillis() / mebibytes);
                    }
                  }));
    }
  }

  /**
   * Whether a side's CPU line of {@code process} is printed: not its JIT compilers' share, and not
   * the server of the other comparison (the hop's during raw and Varve segments, Varve's server's
   * during the hop's); Varve's server during raw segments is, as its idle cost.
   */
  private static boolean shown(String side, String process) {
    if (process.endsWith(CpuMeter.JIT_SUFFIX)) {
      return false;
    }
    return switch (process) {
      case "hop" -> side.equals("hop");
      case "server" -> !side.equals("hop");
      default -> true;
    };
  }

  /** Values {@code from} (inclusive) to {@code to} (exclusive) of one side, timed in seconds. */
  private interface Segment {
    double send(int from, int to) throws InterruptedException;
  }

  /** A put of value {@code v} as rows of generation {@code g}. */
  private interface RowsPut {
    CompletionStage<?> put(int v, int g);
  }

  /** The generation of rows each value was last written as, by a side that writes rows. */
  private static final class Generations {

    private final int[] last = new int[VALUES];
    private int next;

    /** Puts values {@code from..to-1} as rows of a new generation; seconds taken. */
    double put(int from, int to, RowsPut put) throws InterruptedException {
      int generation = next++;
      double took = InFlight.send(VALUES_IN_FLIGHT, values(from, to), v -> put.put(v, generation));
      for (int v = from; v < to; v++) {
        last[v] = generation;
      }
      return took;
    }

    int of(int v) {
      return last[v];
    }
  }

  private static Iterator<Integer> values(int from, int to) {
    return IntStream.range(from, to).iterator();
  }

  /**
   * Seconds each side took for its {@value #VALUES} values, in {@value #SEGMENTS_PER_SIDE} segments
   * a side taken in the order of {@link #ORDER}, by side; each side's CPU by process added to
   * {@code cpuBySide}.
   */
  private static Map<String, Double> inSegments(
      Map<String, Segment> sides, CpuMeter cpu, Map<String, Map<String, Duration>> cpuBySide)
      throws InterruptedException {
    Map<String, Double> seconds = new LinkedHashMap<>();
    Map<String, Integer> next = new LinkedHashMap<>();
    int perSegment = VALUES / SEGMENTS_PER_SIDE;
    int rounds = SEGMENTS_PER_SIDE * sides.size() / ORDER.size();
    for (int round = 0; round < rounds; round++) {
      for (String side : ORDER) {
        int from = next.getOrDefault(side, 0);
        Map<String, Duration> before = cpu.sample();
        seconds.merge(side, sides.get(side).send(from, from + perSegment), Double::sum);
        cpu.accumulate(before, cpuBySide.computeIfAbsent(side, k -> new LinkedHashMap<>()));
        next.put(side, from + perSegment);
      }
    }
    return seconds;
  }

  private CompletionStage<?> varveGetValue(KvApi api, int v) {
    return CompletableFuture.runAsync(() -> getValue(api, v));
  }

  private byte[] content(int v) {
    return contents[v % DISTINCT_VALUES];
  }

  /** Value {@code v} through PutItems, as the one item of record {@code chunked-<v>}. */
  private CompletionStage<?> putValue(KvApi api, int v) {
    return api.put(
        KvBenchmark.NAMESPACE,
        recordId(v),
        List.of(new ItemData.Item(KEY, content(v))),
        KvApi.Token.now());
  }

  /** Value {@code v} through GetItems, checked byte for byte. */
  private void getValue(KvApi api, int v) {
    GetItemsResponse page = api.get(KvBenchmark.NAMESPACE, recordId(v), VALUE_BYTES, "");
    if (page.getItemsCount() != 1
        || !page.getItems(0).getValue().equals(UnsafeByteOperations.unsafeWrap(content(v)))) {
      throw new IllegalStateException("GetItems of " + recordId(v) + " returned other bytes");
    }
  }

  /** Value {@code v} through the hop, as rows of {@code generation}. */
  private CompletionStage<?> hopPutValue(BareHop.Process hop, int v, int generation) {
    return hop.putRows(
        rowsOf(v, generation), KEY, content(v), ROW_BYTES, ROWS_PER_REQUEST, KvApi.Token.now());
  }

  /** Value {@code v} through the hop, as last written, checked byte for byte. */
  private CompletionStage<?> hopGetValue(BareHop.Process hop, int v) {
    return hop.getRows(rowsOf(v, this.hop.of(v)), ROWS_PER_VALUE, ROWS_PER_REQUEST)
        .thenAccept(
            value -> {
              if (!value.equals(UnsafeByteOperations.unsafeWrap(content(v)))) {
                throw new IllegalStateException("the hop returned other bytes for value " + v);
              }
            });
  }

  /**
   * The bytes of value {@code v} as {@value #ROWS_PER_VALUE} rows of {@code generation}, one
   * partition each.
   */
  private CompletionStage<?> rawPutValue(RawItems raw, int v, int generation) {
    KvApi.Token token = KvApi.Token.now();
    return rows(
        r -> {
          byte[] row = Arrays.copyOfRange(content(v), r * ROW_BYTES, (r + 1) * ROW_BYTES);
          return raw.put(rowId(v, generation, r), List.of(new ItemData.Item(KEY, row)), token);
        });
  }

  /** The rows of value {@code v} as last written, each checked for its size. */
  private CompletionStage<?> rawGetValue(RawItems raw, int v) {
    int generation = this.raw.of(v);
    return rows(r -> raw.readOneAsync(rowId(v, generation, r), ROW_BYTES));
  }

  /**
   * Runs {@code row} for each row of a value, as many at a time as the server handles a value's
   * chunks, off the caller's thread.
   */
  private static CompletionStage<?> rows(IntFunction<CompletionStage<?>> row) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            InFlight.send(
                KvChunking.DEFAULT.writeConcurrency(),
                IntStream.range(0, ROWS_PER_VALUE).iterator(),
                row::apply);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  private static String recordId(int v) {
    return "chunked-" + v;
  }

  private static String rowId(int v, int generation, int r) {
    return rowsOf(v, generation) + "-" + r;
  }

  /** The prefix of the records of value {@code v}'s rows of {@code generation}. */
  private static String rowsOf(int v, int generation) {
    return "chunked-" + v + "-" + generation;
  }
}
