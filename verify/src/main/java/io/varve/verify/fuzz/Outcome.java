package io.varve.verify.fuzz;

/**
 * What the server answered to one request.
 *
 * @param status the HTTP status (JSON) or the gRPC status code name; {@code "transport"} when no
 *     answer came back
 * @param body the response body (JSON text or protobuf bytes), empty when there is none
 * @param error for a transport failure, what the client saw; otherwise the error message of the
 *     answer, if any
 */
public record Outcome(String status, byte[] body, String error) {

  /** A gRPC status code that stands for a server fault (the codes HTTP/gRPC maps to 5xx). */
  private static final java.util.Set<String> GRPC_SERVER_FAULTS =
      java.util.Set.of(
          "INTERNAL", "UNKNOWN", "DATA_LOSS", "UNAVAILABLE", "DEADLINE_EXCEEDED", "UNIMPLEMENTED");

  static Outcome transport(String what) {
    return new Outcome("transport", new byte[0], what);
  }

  public boolean transportFailure() {
    return status.equals("transport");
  }

  /** A 5xx, a gRPC code standing for one, or no answer at all. */
  public boolean serverFault() {
    if (transportFailure()) {
      return true;
    }
    if (Character.isDigit(status.charAt(0))) {
      return Integer.parseInt(status) >= 500;
    }
    return GRPC_SERVER_FAULTS.contains(status);
  }

  /** Whether the server took the request (HTTP 200, gRPC OK). */
  public boolean accepted() {
    return status.equals("200") || status.equals("OK");
  }

  /** Whether the server refused the request with a client error (nothing of it may be stored). */
  public boolean refused() {
    return !accepted() && !serverFault();
  }
}
