package io.varve.perf.kv;

import io.varve.perf.measure.Figures;
import io.varve.perf.measure.InFlight;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.IntStream;

/**
 * {@code chunked.put.ratio} and {@code chunked.get.ratio}: MB/s of values of {@value #VALUE_BYTES}
 * bytes through PutItems and GetItems (which store them in chunks) against raw CQL writes and reads
 * of the same bytes as rows of {@value #ROW_BYTES} bytes, one partition each as chunks are spread,
 * the same values in flight.
 *
 * <p>Not run yet: PutItems refuses values above 1 MiB until chunked values exist. The raw side is
 * here; {@link #putChunkedValue} and {@link #getChunkedValue} are the missing half. Once they work,
 * {@link KvBenchmark} calls {@link #run} after the page phase; until then it prints neither figure
 * (and so no verdict for them).
 */
final class ChunkedPhase {

  static final int VALUE_BYTES = 16 * 1024 * 1024;
  static final int ROW_BYTES = 1024 * 1024;
  static final int ROWS_PER_VALUE = VALUE_BYTES / ROW_BYTES;

  /** Values written and read per side. */
  static final int VALUES = 32;

  private final KvParameters parameters;
  private final ItemData data;

  ChunkedPhase(KvParameters parameters, ItemData data) {
    this.parameters = parameters;
    this.data = data;
  }

  void run(Figures out, KvApi api, RawItems raw) throws Exception {
    double megabytes = (double) VALUES * VALUE_BYTES / 1e6;
    double rawPut =
        InFlight.send(
            parameters.concurrency(),
            IntStream.range(0, VALUES).iterator(),
            v -> rawPutValue(raw, v));
    double varvePut =
        InFlight.send(
            parameters.concurrency(), IntStream.range(0, VALUES).iterator(), this::putChunkedValue);
    double rawGet = seconds(() -> IntStream.range(0, VALUES).forEach(v -> rawGetValue(raw, v)));
    double varveGet = seconds(() -> IntStream.range(0, VALUES).forEach(this::getChunkedValue));
    out.put("chunked.value_bytes", VALUE_BYTES);
    out.put("chunked.raw.put_mb_per_s", megabytes / rawPut);
    out.put("chunked.varve.put_mb_per_s", megabytes / varvePut);
    out.put("chunked.put.ratio", Goals.ratio(rawPut, varvePut));
    out.put("chunked.raw.get_mb_per_s", megabytes / rawGet);
    out.put("chunked.varve.get_mb_per_s", megabytes / varveGet);
    out.put("chunked.get.ratio", Goals.ratio(rawGet, varveGet));
  }

  /** Value {@code v} through PutItems, as one item: to come with chunked values. */
  CompletionStage<?> putChunkedValue(int v) {
    throw new UnsupportedOperationException(
        "chunked values: PutItems refuses values above 1 MiB until they exist");
  }

  /** Value {@code v} through GetItems, checked byte for byte: to come with chunked values. */
  void getChunkedValue(int v) {
    throw new UnsupportedOperationException(
        "chunked values: PutItems refuses values above 1 MiB until they exist");
  }

  /** The bytes of value {@code v} as {@value #ROWS_PER_VALUE} rows, one partition each. */
  private CompletionStage<?> rawPutValue(RawItems raw, int v) {
    List<CompletableFuture<?>> rows = new ArrayList<>();
    KvApi.Token token = KvApi.Token.now();
    for (int r = 0; r < ROWS_PER_VALUE; r++) {
      rows.add(
          raw.put(chunkId(v, r), List.of(data.item("", r, ROW_BYTES)), token)
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(rows.toArray(CompletableFuture[]::new));
  }

  private static void rawGetValue(RawItems raw, int v) {
    for (int r = 0; r < ROWS_PER_VALUE; r++) {
      if (raw.readAll(chunkId(v, r)) != 1) {
        throw new IllegalStateException("chunk row " + chunkId(v, r) + " is missing");
      }
    }
  }

  private static String chunkId(int v, int r) {
    return "chunked-" + v + "-" + r;
  }

  private static double seconds(Runnable work) {
    long start = System.nanoTime();
    work.run();
    return (System.nanoTime() - start) / 1e9;
  }
}
