package io.varve.server.error;

import com.google.protobuf.InvalidProtocolBufferException;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.server.RequestTimeoutException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.core.error.Causes;
import io.varve.core.error.DefectException;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.PermissionDeniedException;
import io.varve.core.error.StorageException;
import io.varve.core.error.VarveException;
import io.varve.core.write.Rejection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns a failure into what the caller sees: a gRPC status, an HTTP status with
 * a JSON error body {@code {"error": {"code": ..., "field": ..., "message": ...}}}, or the code and
 * message of one event of a write batch that was not written. Storage failures arrive classified by
 * the store's adapter ({@link StorageException}); their message gets the advice that goes with
 * their kind: UNAVAILABLE is safe to retry (every write is idempotent), FAILED_PRECONDITION is not
 * until the store is repaired. INTERNAL failures, and anything unexpected, are logged once here.
 */
public final class ErrorMapping {

  private static final Logger log = LoggerFactory.getLogger(ErrorMapping.class);

  /** A description that starts with a fully qualified class name: {@code a.b.Class: text}. */
  private static final Pattern CLASS_NAMED =
      Pattern.compile("(?s)(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*: (.*)");

  /** A failure as the caller sees it. */
  public record Failure(VarveException.Kind kind, String field, String message) {

    /**
     * This failure as that of one event of a write batch, named by {@code event} ({@code events[3]
     * (...)}).
     */
    public Failure ofEvent(String event) {
      return new Failure(kind, "", event + " was not written: " + message);
    }

    /** The failure as a gRPC status: its kind's code ({@link #TABLE}), its message. */
    public Status grpcStatus() {
      return Status.fromCode(TABLE.get(kind).grpc()).withDescription(message);
    }

    /** The failure's HTTP status ({@link #TABLE}); the body says the rest. */
    public HttpStatus httpStatus() {
      return TABLE.get(kind).http();
    }
  }

  /** A kind's answer in each protocol. */
  private record Row(Status.Code grpc, HttpStatus http) {}

  /**
   * The one table both protocols answer by: each kind's gRPC code (the kind's own name) and HTTP
   * status. The JSON error body's {@code code} is the kind's name too, so a client of either
   * protocol sees the same code for the same failure.
   */
  private static final Map<VarveException.Kind, Row> TABLE = table();

  private static Map<VarveException.Kind, Row> table() {
    Map<VarveException.Kind, Row> t = new EnumMap<>(VarveException.Kind.class);
    t.put(
        VarveException.Kind.INVALID_ARGUMENT,
        new Row(Status.Code.INVALID_ARGUMENT, HttpStatus.BAD_REQUEST));
    t.put(VarveException.Kind.NOT_FOUND, new Row(Status.Code.NOT_FOUND, HttpStatus.NOT_FOUND));
    t.put(
        VarveException.Kind.ALREADY_EXISTS,
        new Row(Status.Code.ALREADY_EXISTS, HttpStatus.CONFLICT));
    t.put(
        VarveException.Kind.FAILED_PRECONDITION,
        new Row(Status.Code.FAILED_PRECONDITION, HttpStatus.PRECONDITION_FAILED));
    t.put(
        VarveException.Kind.UNAVAILABLE,
        new Row(Status.Code.UNAVAILABLE, HttpStatus.SERVICE_UNAVAILABLE));
    t.put(
        VarveException.Kind.UNAUTHENTICATED,
        new Row(Status.Code.UNAUTHENTICATED, HttpStatus.UNAUTHORIZED));
    t.put(
        VarveException.Kind.PERMISSION_DENIED,
        new Row(Status.Code.PERMISSION_DENIED, HttpStatus.FORBIDDEN));
    t.put(
        VarveException.Kind.RESOURCE_EXHAUSTED,
        new Row(Status.Code.RESOURCE_EXHAUSTED, HttpStatus.TOO_MANY_REQUESTS));
    t.put(
        VarveException.Kind.DEADLINE_EXCEEDED,
        new Row(Status.Code.DEADLINE_EXCEEDED, HttpStatus.GATEWAY_TIMEOUT));
    t.put(
        VarveException.Kind.INTERNAL,
        new Row(Status.Code.INTERNAL, HttpStatus.INTERNAL_SERVER_ERROR));
    if (t.size() != VarveException.Kind.values().length) {
      throw new IllegalStateException("a kind without its row: " + t.keySet());
    }
    return t;
  }

  /**
   * The gRPC code an HTTP status stands for (its name is the JSON error body's code), for the
   * answers Armeria's layer gives before a request reaches Varve (a body too large, a wrong method,
   * its timeouts): the kind whose status it is in {@link #TABLE}, or for the statuses only that
   * layer gives, 405 and 415 INVALID_ARGUMENT, 408 DEADLINE_EXCEEDED, 413, 414 and 431
   * RESOURCE_EXHAUSTED, 501 UNIMPLEMENTED; another 5xx INTERNAL, anything else UNKNOWN. Never a
   * number.
   */
  public static Status.Code codeOf(HttpStatus status) {
    for (Row row : TABLE.values()) {
      if (row.http().equals(status)) {
        return row.grpc();
      }
    }
    return switch (status.code()) {
      case 405, 415 -> Status.Code.INVALID_ARGUMENT;
      case 408 -> Status.Code.DEADLINE_EXCEEDED;
      case 413, 414, 431 -> Status.Code.RESOURCE_EXHAUSTED;
      case 501 -> Status.Code.UNIMPLEMENTED;
      default -> status.isServerError() ? Status.Code.INTERNAL : Status.Code.UNKNOWN;
    };
  }

  private ErrorMapping() {}

  /**
   * The gRPC status of a failure raised by the gRPC layer before a service sees the request: a
   * message protobuf cannot decode (malformed, or nested past protobuf's recursion limit of 100) is
   * the client's error, INVALID_ARGUMENT, as is JSON on a gRPC path that the JSON codec refuses
   * (its message names the field). A {@link VarveException} raised by the transport (a body framed
   * wrong, a message over its limit) is mapped as any other. The caller's deadline ({@code
   * grpc-timeout}) passing on the server is DEADLINE_EXCEEDED, as the caller's own timer would say
   * (gRPC's layer alone answers CANCELLED, which a client that sets no timer of its own cannot tell
   * from a reset stream). A status of gRPC's layer keeps its code, without the class name some of
   * its descriptions start with. {@code null} for anything else (gRPC's own mapping).
   */
  public static Status grpcLayerFailure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof RequestTimeoutException) {
        return Status.DEADLINE_EXCEEDED.withDescription(
            "the caller's deadline (grpc-timeout) passed before the call ended");
      }
      if (t instanceof VarveException e) {
        return of(e).grpcStatus();
      }
      if (t instanceof StatusRuntimeException e && withoutClassName(e.getStatus()) != null) {
        return withoutClassName(e.getStatus());
      }
      if (t instanceof InvalidProtocolBufferException e) {
        return Status.INVALID_ARGUMENT.withDescription(
            "body: not a valid protobuf message (expected: a well-formed"
                + " message nested at most 100 levels deep): "
                + e.getMessage());
      }
    }
    return null;
  }

  /**
   * The status without the class name that gRPC's layer puts before some of its descriptions
   * ({@code com.linecorp.armeria....ArmeriaMessageDeframer: Can't decode compressed frame ...}); a
   * caller has no use for it. {@code null} when there is none (gRPC's own mapping keeps it as is).
   */
  private static Status withoutClassName(Status status) {
    String description = status.getDescription();
    Matcher named = description == null ? null : CLASS_NAMED.matcher(description);
    return named != null && named.matches()
        ? Status.fromCode(status.getCode()).withDescription(named.group(1).strip())
        : null;
  }

  public static Failure of(Throwable error) {
    Throwable t = Causes.unwrap(error);
    if (t instanceof InvalidFieldException e) {
      return new Failure(e.kind(), e.field(), e.getMessage());
    }
    if (t instanceof PermissionDeniedException e) {
      return new Failure(e.kind(), e.field(), e.getMessage());
    }
    if (t instanceof DefectException || hasError(t)) {
      return incident(t);
    }
    if (t instanceof VarveException e) {
      if (e.kind() == VarveException.Kind.INTERNAL) {
        log.error("internal failure", e);
      }
      return new Failure(
          e.kind(), "", e.getMessage() + (e instanceof StorageException s ? advice(s) : ""));
    }
    return incident(t);
  }

  /**
   * A defect's answer: no exception text (a JVM error's, a library's class names), only an incident
   * number that the server's log gives with the whole failure.
   */
  private static Failure incident(Throwable t) {
    String incident = String.format("%08x", ThreadLocalRandom.current().nextInt());
    log.error("unexpected failure, incident {}", incident, t);
    return new Failure(
        VarveException.Kind.INTERNAL,
        "",
        "internal error (incident " + incident + "; the server's log has its details)");
  }

  /** Whether a JVM error (out of memory, a stack overflow) is among the causes of {@code t}. */
  private static boolean hasError(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof Error) {
        return true;
      }
    }
    return false;
  }

  /**
   * A write planner's rejection of one event: its kind, and its message, which names the event and
   * says whether to retry.
   */
  public static Failure of(Rejection rejection) {
    return new Failure(rejection.kind(), "", rejection.message());
  }

  /** What a caller of the API can do about a failure of a store. */
  private static String advice(StorageException e) {
    return switch (e.kind()) {
      case UNAVAILABLE ->
          e.store() == StorageException.Store.INDEX
              ? "; retry later (writes are not affected)"
              : "; retrying is safe";
      case FAILED_PRECONDITION ->
          "; retrying as is fails the same way until an operator repairs the store";
      default -> "";
    };
  }
}
