package io.varve.core.error;

/**
 * Base of the exceptions a caller of Varve can act upon. The {@link Kind} says what the caller can
 * do: fix the request, look for something else, or retry.
 */
public class VarveException extends RuntimeException {

  /** What went wrong, from the caller's point of view; maps one to one to gRPC status codes. */
  public enum Kind {
    /** The request is malformed; fix it. */
    INVALID_ARGUMENT,
    /** The named thing does not exist. */
    NOT_FOUND,
    /** The thing to create exists already. */
    ALREADY_EXISTS,
    /**
     * The request is well formed but the system's state does not allow it (e.g. a version check, a
     * slice table dropped behind Varve's back); do not retry as is.
     */
    FAILED_PRECONDITION,
    /** A store did not answer in time, is down or overloaded; retrying may succeed. */
    UNAVAILABLE,
    /** The caller is not authenticated. */
    UNAUTHENTICATED,
    /**
     * The caller is authenticated but not allowed this call on this namespace; nothing was done.
     */
    PERMISSION_DENIED,
    /** The server is at capacity and refused the request before doing any work; retry later. */
    RESOURCE_EXHAUSTED,
    /**
     * The call could not complete within its latency max (the namespace's objectives) or the
     * caller's deadline; its work was stopped. Retry with a narrower request or a longer max.
     */
    DEADLINE_EXCEEDED,
    /** A defect. */
    INTERNAL
  }

  private final Kind kind;

  public VarveException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public VarveException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  public static VarveException notFound(String message) {
    return new VarveException(Kind.NOT_FOUND, message);
  }

  public static VarveException alreadyExists(String message) {
    return new VarveException(Kind.ALREADY_EXISTS, message);
  }

  public static VarveException failedPrecondition(String message) {
    return new VarveException(Kind.FAILED_PRECONDITION, message);
  }
}
