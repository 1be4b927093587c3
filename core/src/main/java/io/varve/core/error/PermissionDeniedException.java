package io.varve.core.error;

/**
 * The caller's credentials do not grant what a call needs on the thing named by a request field (a
 * namespace). Raised before any work, so nothing was read, written or changed.
 */
public final class PermissionDeniedException extends VarveException {

  private final String field;

  /**
   * @param field the request field naming the protected thing, e.g. {@code namespace}
   * @param message says which thing, which permission is missing and for which call
   */
  public PermissionDeniedException(String field, String message) {
    super(Kind.PERMISSION_DENIED, message);
    this.field = field;
  }

  /** The request field naming the protected thing. */
  public String field() {
    return field;
  }
}
