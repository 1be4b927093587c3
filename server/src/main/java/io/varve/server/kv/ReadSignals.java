package io.varve.server.kv;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.ResponseBound;
import io.varve.server.request.JsonCalls;
import java.util.Map;

/**
 * The signals of a read (GetItemsRequest.signals, ScanItemsRequest.signals; docs/key-value.md,
 * "Signals"): {@code "compression": {"zstd": true}}, the client decompresses values itself; {@code
 * "chunking": {"maxChunkBytes": N}}, it takes a value in parts of at most N bytes (default 1 MiB);
 * {@code "messages": {"maxBytes": N}}, the largest response message it takes. Without {@code
 * messages}, a gRPC client is taken to keep gRPC's usual inbound limit (4 MiB) and an HTTP/JSON
 * client to take any size. Other signals are ignored.
 *
 * @param compression whether values come as stored (compressed), for a client that decompresses
 * @param bound the client's message bound, and the part size when it takes parts
 */
record ReadSignals(boolean compression, ResponseBound bound) {

  static final int DEFAULT_CHUNK_BYTES = KvLimits.MIB;
  static final int MIN_CHUNK_BYTES = 64 * 1024;
  static final int MAX_CHUNK_BYTES = 64 * KvLimits.MIB;
  static final long DEFAULT_GRPC_MESSAGE_BYTES = 4L * KvLimits.MIB;
  static final long MIN_MESSAGE_BYTES = 64 * 1024;
  static final long MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

  private static final String CHUNKING = "chunking";
  private static final String MESSAGES = "messages";

  /**
   * The signals of the request being served on this thread (whether it came over HTTP/JSON is read
   * from its context: call where the context is current).
   */
  static ReadSignals of(Map<String, Struct> signals) {
    return of(signals, JsonCalls.current());
  }

  /**
   * @param json whether the request came over HTTP/JSON (no message bound unless signalled)
   * @throws InvalidFieldException naming the signal, its value and the range, when a size is out of
   *     range or not an integer
   */
  static ReadSignals of(Map<String, Struct> signals, boolean json) {
    Struct chunking = signals.get(CHUNKING);
    int chunkBytes =
        chunking == null
            ? 0
            : (int)
                size(
                    chunking,
                    CHUNKING,
                    "maxChunkBytes",
                    DEFAULT_CHUNK_BYTES,
                    MIN_CHUNK_BYTES,
                    MAX_CHUNK_BYTES);
    Struct messages = signals.get(MESSAGES);
    ResponseBound bound;
    if (messages != null && messages.containsFields("maxBytes")) {
      long bytes =
          size(
              messages,
              MESSAGES,
              "maxBytes",
              MAX_MESSAGE_BYTES,
              MIN_MESSAGE_BYTES,
              MAX_MESSAGE_BYTES);
      bound = new ResponseBound(bytes, "signals.messages.maxBytes", chunkBytes);
    } else if (json) {
      bound = new ResponseBound(Long.MAX_VALUE, "HTTP/JSON: no bound", chunkBytes);
    } else {
      bound =
          new ResponseBound(
              DEFAULT_GRPC_MESSAGE_BYTES,
              "gRPC's usual inbound limit, as no signals.messages.maxBytes was sent",
              chunkBytes);
    }
    return new ReadSignals(KvRequests.acceptsCompression(signals), bound);
  }

  /** The integer {@code name} of signal {@code signal}: {@code absent} when not set. */
  private static long size(
      Struct struct, String signal, String name, long absent, long min, long max) {
    Value v = struct.getFieldsOrDefault(name, null);
    if (v == null) {
      return absent;
    }
    String field = "signals." + signal + "." + name;
    String expected = "an integer from " + min + " to " + max;
    if (v.getKindCase() != Value.KindCase.NUMBER_VALUE) {
      throw new InvalidFieldException(field, v.toString().strip(), expected);
    }
    double n = v.getNumberValue();
    if (n != Math.rint(n) || n < min || n > max) {
      throw new InvalidFieldException(
          field, n == Math.rint(n) && Math.abs(n) < 1e18 ? (Object) (long) n : n, expected);
    }
    return (long) n;
  }
}
