package io.varve.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.command.ExitStatus;
import java.net.ConnectException;
import java.security.cert.CertificateException;
import java.util.EnumSet;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;

/**
 * A call of a command to a Varve server that failed: what to tell the user, and the command's exit
 * status. A server that cannot be reached or whose certificate is not trusted is named with what to
 * do about it; a refusal or failure of the server is printed with its code and message.
 */
record ServerCallFailure(String message, ExitStatus status) {

  /**
   * The codes of a request the server refuses: sending it again fails again (unknown namespace, bad
   * token, invalid interval). Every other code (a timeout, a refusal under load, a failure of the
   * server or of storage) may pass later.
   */
  private static final Set<Status.Code> REFUSED =
      EnumSet.of(
          Status.Code.INVALID_ARGUMENT,
          Status.Code.NOT_FOUND,
          Status.Code.ALREADY_EXISTS,
          Status.Code.PERMISSION_DENIED,
          Status.Code.UNAUTHENTICATED,
          Status.Code.FAILED_PRECONDITION,
          Status.Code.OUT_OF_RANGE,
          Status.Code.UNIMPLEMENTED);

  /** The failure of calling {@code rpc} on the server at {@code server}. */
  static ServerCallFailure of(String rpc, String server, StatusRuntimeException e) {
    if (causedBy(e, ConnectException.class)) {
      return new ServerCallFailure(
          "cannot reach the Varve server at "
              + server
              + " ("
              + e.getStatus().getCode()
              + "); is it running? ./varve status says",
          ExitStatus.ABORTED_FATAL_ERROR);
    }
    if (causedBy(e, SSLHandshakeException.class) || causedBy(e, CertificateException.class)) {
      return new ServerCallFailure(
          "the TLS certificate of the Varve server at "
              + server
              + " is not trusted: pass the authority that signed it with --cacert FILE"
              + " (.varve/secure/ca.pem for the server of ./varve up --secure)",
          ExitStatus.ABORTED_FATAL_ERROR);
    }
    return new ServerCallFailure(
        rpc + " failed: " + describe(e.getStatus()), statusOf(e.getStatus().getCode()));
  }

  /**
   * The exit status of a failed call: a request the server refuses ({@link #REFUSED}) is invalid
   * input; anything else may pass later and is a fatal error of this run.
   */
  static ExitStatus statusOf(Status.Code code) {
    return REFUSED.contains(code) ? ExitStatus.INVALID_INPUT : ExitStatus.ABORTED_FATAL_ERROR;
  }

  /** {@code CODE: message}, the message naming the field of a refused request. */
  static String describe(Status status) {
    return status.getCode()
        + (status.getDescription() == null ? "" : ": " + status.getDescription());
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> kind) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (kind.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
