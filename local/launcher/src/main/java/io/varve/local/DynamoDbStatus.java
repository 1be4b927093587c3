package io.varve.local;

import java.net.URI;

/**
 * What the pid file of a local DynamoDB Local server says, checked against the running processes.
 *
 * @param state running, stopped, or a stale pid file
 * @param pid the pid from the pid file; 0 when {@link State#STOPPED}
 * @param endpoint where the server serves (or would serve) the DynamoDB API
 */
public record DynamoDbStatus(State state, long pid, URI endpoint) {

  /** The three states of a server's pid file. */
  public enum State {
    /** The pid file names a live DynamoDB Local process of this home; it may still be starting. */
    RUNNING,
    /** No pid file: the server was never started or was stopped. */
    STOPPED,
    /** The pid file names a process that is gone or is not this server; never signalled. */
    STALE
  }

  /** Whether the server's process is alive. */
  public boolean isRunning() {
    return state == State.RUNNING;
  }
}
