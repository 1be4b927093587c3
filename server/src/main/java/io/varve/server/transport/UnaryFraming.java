package io.varve.server.transport;

import com.linecorp.armeria.common.FilteredHttpRequest;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpObject;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.SerializationFormat;
import com.linecorp.armeria.common.grpc.GrpcSerializationFormats;
import com.linecorp.armeria.server.HttpService;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import java.util.function.Function;
import org.reactivestreams.Subscriber;

/**
 * The framing of a unary gRPC request, checked as its body streams by: exactly one message, framed
 * as a flags byte ({@code 0x00}, or {@code 0x01} compressed), a 4-byte big-endian length and that
 * many bytes, the length within the service's limit.
 *
 * <p>Armeria's unary call reads the first message and drops what follows it, answers a message cut
 * short with UNKNOWN and no message, and reads the length as a signed number, answering {@code
 * 0xFFFFFFFF} with "Frame size -1" and its class name. grpc-java refuses each; here each is refused
 * naming the problem: INVALID_ARGUMENT, or RESOURCE_EXHAUSTED naming the declared length and the
 * limit. The failure ends the request stream, and the gRPC service's exception handler maps it
 * ({@link io.varve.server.error.ErrorMapping#grpcLayerFailure}).
 *
 * <p>Not thread-safe: one instance per request, fed in order by its stream.
 */
final class UnaryFraming {

  private static final int PREFIX_BYTES = 5;

  private final long maxMessageBytes;
  private final String limit;
  private final byte[] prefix = new byte[PREFIX_BYTES];
  private int prefixRead;
  private long declared;
  private long bodyLeft;
  private boolean complete;
  private long position;

  /**
   * @param maxMessageBytes the largest message the service takes
   * @param limit what sets that limit, as a refusal names it ({@code
   *     timeseries.limits.maxRequestBytes})
   */
  UnaryFraming(long maxMessageBytes, String limit) {
    this.maxMessageBytes = maxMessageBytes;
    this.limit = limit;
  }

  /**
   * A decorator checking the framing of every gRPC request of a service whose methods are all
   * unary. JSON or protobuf sent unframed to a gRPC path passes unchecked (it has no framing), and
   * so does gRPC-Web text (base64 of the frames).
   */
  static Function<? super HttpService, ? extends HttpService> decorator(
      int maxMessageBytes, String limit) {
    return service ->
        service.decorate(
            (delegate, ctx, req) -> {
              HttpData gathered = ctx.setAttr(Admission.GATHERED_BODY, null);
              if (!framed(req.contentType())
                  || (gathered != null && wellFramed(gathered, maxMessageBytes, limit))) {
                return delegate.serve(ctx, req);
              }
              // checked as the body streams by: a failure ends the request stream, as the gRPC
              // service's exception handler expects
              return delegate.serve(ctx, checked(req, maxMessageBytes, limit));
            });
  }

  /**
   * Whether a body admission has gathered is exactly one well-framed message: checked in one pass
   * over its bytes, where a filtering wrapper would see every piece again as the gRPC call reads
   * the body (about 1 % of the server's CPU time on small PutItems, in profiles of 2026-12-01). A
   * body that fails is checked again as it streams, so that its refusal takes the usual path.
   */
  private static boolean wellFramed(HttpData body, int maxMessageBytes, String limit) {
    UnaryFraming framing = new UnaryFraming(maxMessageBytes, limit);
    try {
      framing.read(body.array());
      framing.end();
      return true;
    } catch (VarveException e) {
      return false;
    }
  }

  private static boolean framed(MediaType type) {
    SerializationFormat format = type == null ? null : SerializationFormat.find(type);
    return format != null
        && GrpcSerializationFormats.isGrpc(format)
        && !GrpcSerializationFormats.isGrpcWebText(format);
  }

  private static HttpRequest checked(HttpRequest req, int maxMessageBytes, String limit) {
    UnaryFraming framing = new UnaryFraming(maxMessageBytes, limit);
    // pieces arrive on the heap: admission has gathered the body there, so array() copies nothing
    return new FilteredHttpRequest(req) {
      @Override
      protected HttpObject filter(HttpObject obj) {
        if (obj instanceof HttpData data) {
          framing.read(data.array());
        }
        return obj;
      }

      @Override
      protected void beforeComplete(Subscriber<? super HttpObject> subscriber) {
        framing.end();
      }
    };
  }

  /**
   * Reads the next piece of the body.
   *
   * @throws InvalidFieldException on a second message or flags other than 0 and 1
   * @throws VarveException RESOURCE_EXHAUSTED on a length over the limit
   */
  void read(byte[] bytes) {
    int i = 0;
    int end = bytes.length;
    while (i < end) {
      if (complete) {
        throw InvalidFieldException.of(
            "body",
            "a second message at byte "
                + position
                + " (expected: exactly one message on a unary call)");
      }
      int taken;
      if (prefixRead < PREFIX_BYTES) {
        taken = Math.min(PREFIX_BYTES - prefixRead, end - i);
        System.arraycopy(bytes, i, prefix, prefixRead, taken);
        prefixRead += taken;
        if (prefixRead == PREFIX_BYTES) {
          declared = checkedPrefix();
          bodyLeft = declared;
        }
      } else {
        taken = (int) Math.min(bodyLeft, end - i);
        bodyLeft -= taken;
      }
      i += taken;
      position += taken;
      complete = prefixRead == PREFIX_BYTES && bodyLeft == 0;
    }
  }

  /**
   * The body has ended.
   *
   * @throws InvalidFieldException when it held no message or a message cut short
   */
  void end() {
    if (complete) {
      return;
    }
    if (position == 0) {
      throw InvalidFieldException.of(
          "body", "no message (expected: exactly one message on a unary call)");
    }
    String ended =
        prefixRead < PREFIX_BYTES
            ? "the request ended " + prefixRead + " bytes into the 5-byte prefix"
            : "its length prefix declares "
                + declared
                + " bytes, the request ended after "
                + (declared - bodyLeft);
    throw InvalidFieldException.of(
        "body",
        "incomplete message: " + ended + " (expected: one complete length-prefixed message)");
  }

  /** The declared length, unsigned, once the flags and the length are checked. */
  private long checkedPrefix() {
    int flags = prefix[0] & 0xFF;
    if (flags > 1) {
      throw InvalidFieldException.of(
          "body",
          String.format(
              "message flags 0x%02X (expected: 0x00, or 0x01 for a compressed message)", flags));
    }
    long length =
        ((prefix[1] & 0xFFL) << 24)
            | ((prefix[2] & 0xFFL) << 16)
            | ((prefix[3] & 0xFFL) << 8)
            | (prefix[4] & 0xFFL);
    if (length > maxMessageBytes) {
      throw new VarveException(
          VarveException.Kind.RESOURCE_EXHAUSTED,
          "body: a message of "
              + length
              + " bytes (expected: at most "
              + maxMessageBytes
              + " bytes, "
              + limit
              + ")");
    }
    return length;
  }
}
