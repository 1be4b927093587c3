package io.varve.bench.sla;

/** An SLA that cannot be parsed, with the clause and what was expected in the message. */
public class SlaException extends RuntimeException {
  public SlaException(String message) {
    super(message);
  }
}
