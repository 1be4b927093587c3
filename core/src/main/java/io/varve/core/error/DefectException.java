package io.varve.core.error;

/**
 * An unexpected failure that is neither the request's nor a store's: a defect of Varve's own code,
 * a library's, or the JVM running out of something. Its message holds the failure's own text (class
 * names, a JVM error's), which is for the server's log: a caller is answered INTERNAL with an
 * incident number that the log gives beside it, never with that text.
 */
public final class DefectException extends VarveException {

  /** {@code cause} as a defect, its text in this exception's message. */
  public DefectException(Throwable cause) {
    super(Kind.INTERNAL, "internal error: " + cause, cause);
  }
}
