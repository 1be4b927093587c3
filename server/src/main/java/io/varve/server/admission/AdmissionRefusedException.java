package io.varve.server.admission;

import io.varve.core.error.VarveException;

/** A request refused at admission because its budget is spent; the caller should retry later. */
public final class AdmissionRefusedException extends VarveException {

  public AdmissionRefusedException(String message) {
    super(Kind.RESOURCE_EXHAUSTED, message);
  }
}
