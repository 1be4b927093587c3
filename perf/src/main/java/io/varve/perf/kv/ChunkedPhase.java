package io.varve.perf.kv;

import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.core.kv.KvChunking;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.InFlight;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * {@code chunked.put.ratio} and {@code chunked.get.ratio}: MB/s of values of {@value #VALUE_BYTES}
 * bytes through PutItems and GetItems (which store them in chunks of 1 MiB in the chunk table)
 * against raw CQL writes and reads of the same bytes as rows of {@value #ROW_BYTES} bytes, one
 * partition each as chunks are spread.
 *
 * <p>Same work in flight on both sides: puts keep {@value #VALUES_IN_FLIGHT} values in flight, each
 * value's rows {@link KvChunking#DEFAULT}{@code .writeConcurrency()} at a time, as the server
 * writes a value's chunks; gets read one value after the other, its rows as many at a time as the
 * server reads chunks. Both sides first put and get {@value #WARMUP_VALUES} values in turn, {@value
 * #WARMUP_ROUNDS} times, not measured (the chunked paths run for the first time in the run), then
 * each side is measured in two halves, in the order raw, Varve, Varve, raw. Values are {@value
 * #DISTINCT_VALUES} buffers of random bytes (incompressible), each GetItems answer checked byte for
 * byte.
 */
final class ChunkedPhase {

  static final int VALUE_BYTES = 16 * 1024 * 1024;
  static final int ROW_BYTES = 1024 * 1024;
  static final int ROWS_PER_VALUE = VALUE_BYTES / ROW_BYTES;

  /** Values written and read per side, measured. */
  static final int VALUES = 32;

  /** Values written and read per side in each warm-up round, not measured. */
  static final int WARMUP_VALUES = 8;

  /** Warm-up rounds: puts and gets of both sides in turn. */
  static final int WARMUP_ROUNDS = 2;

  /** Values in flight during the puts: 64 MiB, well within the server's admission bound. */
  static final int VALUES_IN_FLIGHT = 4;

  /** Distinct value contents, reused round robin: bounds the benchmark's own heap. */
  static final int DISTINCT_VALUES = 4;

  private static final byte[] KEY = ItemData.key("value", 0);

  private final byte[][] contents = new byte[DISTINCT_VALUES][];

  ChunkedPhase(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < DISTINCT_VALUES; i++) {
      contents[i] = new byte[VALUE_BYTES];
      random.nextBytes(contents[i]);
    }
  }

  void run(Figures out, KvApi api, RawItems raw) throws Exception {
    // warm-up: the chunked paths of both sides run here for the first time in the run
    for (int round = 0; round < WARMUP_ROUNDS; round++) {
      InFlight.send(VALUES_IN_FLIGHT, values(WARMUP_VALUES), v -> rawPutValue(raw, v));
      InFlight.send(VALUES_IN_FLIGHT, values(WARMUP_VALUES), v -> putValue(api, v));
      InFlight.send(1, values(WARMUP_VALUES), v -> rawGetValue(raw, v));
      InFlight.send(1, values(WARMUP_VALUES), v -> varveGetValue(api, v));
    }
    double megabytes = (double) VALUES * VALUE_BYTES / 1e6;
    double[] puts = inHalves(VALUES_IN_FLIGHT, v -> rawPutValue(raw, v), v -> putValue(api, v));
    double[] gets = inHalves(1, v -> rawGetValue(raw, v), v -> varveGetValue(api, v));
    double rawPut = puts[0];
    double varvePut = puts[1];
    double rawGet = gets[0];
    double varveGet = gets[1];
    out.put("chunked.value_bytes", VALUE_BYTES);
    out.put("chunked.values", VALUES);
    out.put("chunked.raw.put_mb_per_s", megabytes / rawPut);
    out.put("chunked.varve.put_mb_per_s", megabytes / varvePut);
    out.put("chunked.put.ratio", Goals.ratio(rawPut, varvePut));
    out.put("chunked.raw.get_mb_per_s", megabytes / rawGet);
    out.put("chunked.varve.get_mb_per_s", megabytes / varveGet);
    out.put("chunked.get.ratio", Goals.ratio(rawGet, varveGet));
  }

  private static Iterator<Integer> values(int count) {
    return IntStream.range(0, count).iterator();
  }

  /**
   * Seconds each side took for its {@value #VALUES} values, {@code inFlight} at a time, measured in
   * two halves in the order raw, Varve, Varve, raw: {@code [raw, varve]}.
   */
  private static double[] inHalves(
      int inFlight,
      Function<Integer, CompletionStage<?>> raw,
      Function<Integer, CompletionStage<?>> varve)
      throws InterruptedException {
    double[] seconds = new double[2];
    for (boolean rawTurn : new boolean[] {true, false, false, true}) {
      seconds[rawTurn ? 0 : 1] +=
          InFlight.send(inFlight, values(VALUES / 2), rawTurn ? raw : varve);
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
        || !Arrays.equals(page.getItems(0).getValue().toByteArray(), content(v))) {
      throw new IllegalStateException("GetItems of " + recordId(v) + " returned other bytes");
    }
  }

  /** The bytes of value {@code v} as {@value #ROWS_PER_VALUE} rows, one partition each. */
  private CompletionStage<?> rawPutValue(RawItems raw, int v) {
    KvApi.Token token = KvApi.Token.now();
    return rows(
        r -> {
          byte[] row = Arrays.copyOfRange(content(v), r * ROW_BYTES, (r + 1) * ROW_BYTES);
          return raw.put(rowId(v, r), List.of(new ItemData.Item(KEY, row)), token);
        });
  }

  /** The rows of value {@code v}, each checked for its size. */
  private static CompletionStage<?> rawGetValue(RawItems raw, int v) {
    return rows(r -> raw.readOneAsync(rowId(v, r), ROW_BYTES));
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

  private static String rowId(int v, int r) {
    return "chunked-" + v + "-" + r;
  }
}
