package io.varve.server.transport;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.google.protobuf.InvalidProtocolBufferException;
import com.linecorp.armeria.common.HttpStatus;
import io.grpc.Status;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.Causes;
import io.varve.core.error.PermissionDeniedException;
import io.varve.core.error.VarveException;
import io.varve.core.index.IndexStoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns a failure into what the caller sees: a gRPC status or an HTTP status
 * with a JSON error body {@code {"error": {"code": ..., "field": ..., "message": ...}}}.
 * Storage failures become UNAVAILABLE (safe to retry: every write is idempotent); anything
 * unexpected is INTERNAL and logged once here.
 */
public final class ErrorMapping {

  private static final Logger log = LoggerFactory.getLogger(ErrorMapping.class);

  /** A failure as the caller sees it. */
  public record Failure(VarveException.Kind kind, String field, String message) {

    public Status grpcStatus() {
      Status status = switch (kind) {
        case INVALID_ARGUMENT -> Status.INVALID_ARGUMENT;
        case NOT_FOUND -> Status.NOT_FOUND;
        case ALREADY_EXISTS -> Status.ALREADY_EXISTS;
        case FAILED_PRECONDITION -> Status.FAILED_PRECONDITION;
        case UNAVAILABLE -> Status.UNAVAILABLE;
        case UNAUTHENTICATED -> Status.UNAUTHENTICATED;
        case PERMISSION_DENIED -> Status.PERMISSION_DENIED;
        case RESOURCE_EXHAUSTED -> Status.RESOURCE_EXHAUSTED;
        case INTERNAL -> Status.INTERNAL;
      };
      return status.withDescription(message);
    }

    public HttpStatus httpStatus() {
      return switch (kind) {
        case INVALID_ARGUMENT -> HttpStatus.BAD_REQUEST;
        case NOT_FOUND -> HttpStatus.NOT_FOUND;
        case ALREADY_EXISTS -> HttpStatus.CONFLICT;
        case FAILED_PRECONDITION -> HttpStatus.PRECONDITION_FAILED;
        case UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
        case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED;
        case PERMISSION_DENIED -> HttpStatus.FORBIDDEN;
        case RESOURCE_EXHAUSTED -> HttpStatus.TOO_MANY_REQUESTS;
        case INTERNAL -> HttpStatus.INTERNAL_SERVER_ERROR;
      };
    }
  }

  private ErrorMapping() {}

  /**
   * The gRPC status of a failure raised by the gRPC layer before a service sees the request: a
   * message protobuf cannot decode (malformed, or nested past protobuf's recursion limit of 100)
   * is the client's error, INVALID_ARGUMENT, as is JSON on a gRPC path that the JSON codec
   * refuses (its message names the field); {@code null} for anything else (gRPC's own mapping).
   */
  public static Status grpcDecodingFailure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof InvalidFieldException e) {
        return of(e).grpcStatus();
      }
      if (t instanceof InvalidProtocolBufferException e) {
        return Status.INVALID_ARGUMENT.withDescription("body: not a valid protobuf message (expected: a well-formed"
            + " message nested at most 100 levels deep): " + e.getMessage());
      }
    }
    return null;
  }

  public static Failure of(Throwable error) {
    Throwable t = Causes.unwrap(error);
    if (t instanceof InvalidFieldException e) {
      return new Failure(e.kind(), e.field(), e.getMessage());
    }
    if (t instanceof PermissionDeniedException e) {
      return new Failure(e.kind(), e.field(), e.getMessage());
    }
    if (t instanceof VarveException e) {
      return new Failure(e.kind(), "", e.getMessage());
    }
    if (t instanceof IndexStoreUnavailableException) {
      return new Failure(VarveException.Kind.UNAVAILABLE, "", "the index store did not answer: " + t.getMessage()
          + "; retry later (writes are not affected)");
    }
    if (t instanceof DriverException && !(t instanceof QueryValidationException)) {
      return new Failure(VarveException.Kind.UNAVAILABLE, "", "storage unavailable: " + t.getMessage()
          + "; retrying is safe");
    }
    log.error("unexpected failure", t);
    return new Failure(VarveException.Kind.INTERNAL, "", "internal error: " + t);
  }
}
