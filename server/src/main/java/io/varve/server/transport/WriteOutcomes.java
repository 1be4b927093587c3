package io.varve.server.transport;

import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.logging.RequestLog;
import io.grpc.Status;
import io.varve.server.admission.WriteConcurrency.Outcome;
import java.util.Set;

/**
 * How a write's exchange ended, for its adaptive concurrency limit: from the gRPC status (in the
 * trailers, or in the headers of a trailers-only answer) or the HTTP status of a JSON call.
 */
final class WriteOutcomes {

  /** The statuses that say the server or its store could not keep up, or the caller gave up. */
  private static final Set<Status.Code> DROPPED =
      Set.of(Status.Code.DEADLINE_EXCEEDED, Status.Code.CANCELLED, Status.Code.UNAVAILABLE);

  private WriteOutcomes() {}

  static Outcome of(RequestLog log) {
    String grpc = log.responseTrailers().get("grpc-status");
    if (grpc == null) {
      grpc = log.responseHeaders().get("grpc-status");
    }
    if (grpc != null) {
      Status.Code code = codeOf(grpc);
      if (code == Status.Code.OK) {
        return Outcome.ANSWERED;
      }
      return DROPPED.contains(code) ? Outcome.DROPPED : Outcome.IGNORED;
    }
    HttpStatus status = log.responseHeaders().status();
    if (status.isSuccess()) {
      return Outcome.ANSWERED;
    }
    // no status at all: the exchange was reset or timed out before an answer
    if (status.equals(HttpStatus.UNKNOWN)
        || status.equals(HttpStatus.SERVICE_UNAVAILABLE)
        || status.equals(HttpStatus.GATEWAY_TIMEOUT)) {
      return Outcome.DROPPED;
    }
    return Outcome.IGNORED;
  }

  private static Status.Code codeOf(String value) {
    try {
      return Status.fromCodeValue(Integer.parseInt(value.trim())).getCode();
    } catch (NumberFormatException e) {
      return Status.Code.UNKNOWN;
    }
  }
}
