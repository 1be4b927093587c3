package io.varve.command;

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;

/**
 * The exit status of every {@code varve} command: one table for all of them, each status meaning
 * one thing a script can act on. A command maps its own outcomes onto it (bad rows, a missed SLA
 * and a failed check are all {@link #COMPLETED_WITH_ERRORS}); {@code docs/exit-status.md} says
 * which command returns what, and a test keeps that page's table equal to this enum.
 *
 * <p>A signal ends the JVM with 128 plus its number whatever the command was doing (130 for Ctrl-C,
 * 143 for SIGTERM); {@link #INTERRUPTED} is 130 so that an interruption the command notices itself
 * reads the same as Ctrl-C.
 */
public enum ExitStatus {

  /** Done, everything as asked. */
  OK(0, "done, everything as asked"),

  /**
   * Done, but the result is not all well: rows written to the bad-rows file, an SLA missed,
   * differences found by a validation, a verification failed, events not indexed, a server not
   * running. The output says what.
   */
  COMPLETED_WITH_ERRORS(1, "done, not all well: bad rows, SLA missed, a check failed, not running"),

  /**
   * Refused before any work: the command line, a configuration or job file, an input file, or a
   * request the server refused as invalid. Nothing was changed; running it again unchanged fails
   * again.
   */
  INVALID_INPUT(2, "invalid input (command line, configuration, files): nothing was done"),

  /**
   * Stopped by a threshold that the input set: more bad rows than {@code failures.maxBadRows}, or a
   * reshape conflict under {@code onConflict: fail} (a threshold of none). What was finished is
   * kept.
   */
  ABORTED_TOO_MANY_ERRORS(3, "stopped by a threshold: too many bad rows, onConflict: fail"),

  /**
   * Stopped by an error of the environment: a host that cannot be reached, a lost connection, a
   * server error, a failed task, a port in use. What was finished is kept; run it again once the
   * cause is fixed (a reshaper job resumes).
   */
  ABORTED_FATAL_ERROR(4, "stopped by an error: unreachable host, lost connection, server error"),

  /** Stopped by an error of the JVM or a bug: an {@link Error} such as {@link OutOfMemoryError}. */
  CRASHED(5, "crashed: an error of the JVM (out of memory) or a bug"),

  /** Interrupted: Ctrl-C, or a wait of the command was interrupted. What was finished is kept. */
  INTERRUPTED(130, "interrupted (Ctrl-C)");

  private final int code;
  private final String summary;

  ExitStatus(int code, String summary) {
    this.code = code;
    this.summary = summary;
  }

  /** The process exit code. */
  public int code() {
    return code;
  }

  /** One line saying what the status means: the commands' help and the docs table show it. */
  public String summary() {
    return summary;
  }

  /**
   * The status of a command that ended with {@code failure}: {@link #INTERRUPTED} when an
   * interruption is among its causes, {@link #CRASHED} for an {@link Error}, else {@link
   * #ABORTED_FATAL_ERROR}. Invalid input is not recognised here: only the command knows which of
   * its exceptions mean it ({@link ExitStatusMapper}).
   */
  public static ExitStatus of(Throwable failure) {
    if (interrupted(failure)) {
      return INTERRUPTED;
    }
    return failure instanceof Error ? CRASHED : ABORTED_FATAL_ERROR;
  }

  private static boolean interrupted(Throwable failure) {
    // Bounded: a cause chain can loop.
    Throwable t = failure;
    for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
      // A socket timeout is an InterruptedIOException too, but nothing interrupted it.
      if (t instanceof InterruptedException
          || t instanceof ClosedByInterruptException
          || (t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException))) {
        return true;
      }
    }
    return false;
  }
}
